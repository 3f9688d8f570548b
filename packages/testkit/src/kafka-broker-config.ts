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

export function serverProperties({ port, controllerPort, flakyPort, proxyPort, logDir }: Ports): string {
  return `${[
    'process.roles=broker,controller',
    'node.id=1',
    `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
    `listeners=PLAINTEXT://127.0.0.1:${port},FLAKY://127.0.0.1:${flakyPort},CONTROLLER://127.0.0.1:${controllerPort}`,
    `advertised.listeners=PLAINTEXT://127.0.0.1:${port},FLAKY://127.0.0.1:${proxyPort}`,
    'controller.listener.names=CONTROLLER',
    'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,FLAKY:PLAINTEXT,CONTROLLER:PLAINTEXT',
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
