/**
 * The test broker's configuration: one KRaft node (broker and controller) with a plain listener, a FLAKY
 * listener advertised through the test's proxy, single-replica internal topics, and quiet logging.
 */
import { randomBytes } from 'node:crypto';

export const JVM_OPTIONS = [
  '-Xms128m',
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-XX:-UsePerfData',
];

/** Kafka's cluster id format: a random UUID's 16 bytes, base64url without padding. */
export function clusterId(): string {
  return randomBytes(16).toString('base64url');
}

export interface Ports {
  port: number;
  controllerPort: number;
  flakyPort: number;
  proxyPort: number;
  logDir: string;
}

/**
 * Listeners for TLS and SASL tests: SSL, SASL_SSL and SASL_PLAINTEXT on ports of their own, the broker's key from a
 * PKCS12 store, PLAIN users in the JAAS lines and SCRAM users added when the log dir is formatted.
 */
export interface SecureListeners {
  readonly sslPort: number;
  readonly saslSslPort: number;
  readonly saslPlaintextPort: number;
  readonly keyStore: string;
  readonly keyStorePassword: string;
  readonly users: ReadonlyArray<{ readonly name: string; readonly password: string }>;
}

function secureProperties(secure: SecureListeners | undefined): { listeners: string[]; lines: string[] } {
  if (!secure) return { listeners: [], lines: [] };
  const plainUsers = secure.users.map((user) => `user_${user.name}="${user.password}"`).join(' ');
  const lines = [
    'ssl.keystore.type=PKCS12',
    `ssl.keystore.location=${secure.keyStore}`,
    `ssl.keystore.password=${secure.keyStorePassword}`,
    `ssl.key.password=${secure.keyStorePassword}`,
    'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
  ];
  for (const listener of ['sasl_ssl', 'sasl_plaintext']) {
    lines.push(
      `listener.name.${listener}.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required ${plainUsers};`,
      `listener.name.${listener}.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
      `listener.name.${listener}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;`,
    );
  }
  return {
    listeners: [
      `SSL://127.0.0.1:${secure.sslPort}`,
      `SASL_SSL://127.0.0.1:${secure.saslSslPort}`,
      `SASL_PLAINTEXT://127.0.0.1:${secure.saslPlaintextPort}`,
    ],
    lines,
  };
}

/** StorageTool arguments that create the SCRAM users (KRaft keeps them in the metadata log). */
export function scramFormatArguments(secure: SecureListeners | undefined): string[] {
  if (!secure) return [];
  return secure.users.flatMap((user) =>
    ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((mechanism) => [
      '--add-scram',
      `${mechanism}=[name=${user.name},password=${user.password}]`,
    ]),
  );
}

export function serverProperties(
  { port, controllerPort, flakyPort, proxyPort, logDir }: Ports,
  secure?: SecureListeners,
): string {
  const extra = secureProperties(secure);
  const more = extra.listeners.map((listener) => `,${listener}`).join('');
  return `${[
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},FLAKY://127.0.0.1:${flakyPort},CONTROLLER://127.0.0.1:${controllerPort}${more}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port},FLAKY://127.0.0.1:${proxyPort}${more}`,
    'controller.listener.names=CONTROLLER',
    `listener.security.protocol.map=PLAINTEXT:PLAINTEXT,FLAKY:PLAINTEXT,CONTROLLER:PLAINTEXT${secure ? ',SSL:SSL,SASL_SSL:SASL_SSL,SASL_PLAINTEXT:SASL_PLAINTEXT' : ''}`,
    'inter.broker.listener.name=PLAINTEXT',
    `log.dirs=${logDir}`,
    'num.partitions=1',
    // A single node: internal topics with one replica and one partition (50 partitions is slow to create).
    'offsets.topic.replication.factor=1',
    'offsets.topic.num.partitions=1',
    'transaction.state.log.replication.factor=1',
    'transaction.state.log.min.isr=1',
    'transaction.state.log.num.partitions=1',
    'share.coordinator.state.topic.replication.factor=1',
    'share.coordinator.state.topic.min.isr=1',
    'share.coordinator.state.topic.num.partitions=1',
    // Production brokers wait 3 s before a new group's first rebalance; a test broker need not.
    'group.initial.rebalance.delay.ms=0',
    ...extra.lines,
  ].join('\n')}\n`;
}

/** Warnings and errors, plus the line that says the broker started. */
export const LOG4J2 = `status = error
appender.console.type = Console
appender.console.name = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = CONSOLE
logger.raft.name = kafka.server.KafkaRaftServer
logger.raft.level = INFO
`;
