/**
 * A real single-node Kafka (KRaft: broker and controller in one JVM, no ZooKeeper) for tests, run from Apache
 * Kafka's own jars on Maven Central (interop/kafka-broker, fetched once by Maven). It listens on two free
 * loopback ports, is ready once it logged that it started and answers a metadata request (no sleeps), and can
 * be stopped and started again on the same ports and data (a broker restart). `remove()` deletes everything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { type AddressInfo, type Socket, connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Admin, Consumer } from '@platformatic/kafka';
import { reserveFreePort } from './confbus-processes.js';
import { buildMavenProject, javaToolchain } from './maven.js';
import { makeTempDir } from './temp-dir.js';

export const KAFKA_BROKER_PROJECT = fileURLToPath(new URL('../../../interop/kafka-broker', import.meta.url));

/** Whether a Kafka broker can run here; Kafka tests report "not run: <reason>" when it cannot. */
export function kafkaAvailability(): { ok: true } | { ok: false; reason: string } {
  return javaToolchain();
}

/** Fetches the broker's jars (once: Maven's build is cached by the project's hash). Returns their directory. */
export async function fetchKafkaBroker(log?: (line: string) => void): Promise<string> {
  const build = await buildMavenProject(KAFKA_BROKER_PROJECT, log ? { log } : {});
  if (!build.classpathDir) throw new Error(`${KAFKA_BROKER_PROJECT} did not produce target/lib`);
  return build.classpathDir;
}

export interface TestKafkaBroker {
  /** `127.0.0.1:<port>`, the bootstrap address. */
  readonly bootstrap: string;
  /**
   * A second listener reached through a TCP proxy of the test (the broker advertises the proxy there), so the
   * clients bootstrapped on it lose their connections on `cutFlaky()` while the broker and everyone else stay up.
   */
  readonly flakyBootstrap: string;
  /** Drops every connection through the proxy and refuses new ones until `restoreFlaky()`. */
  cutFlaky(): void;
  restoreFlaky(): void;
  /** Stops the JVM (SIGTERM, or SIGKILL with `crash`), keeping its data for `start()`. */
  stop(options?: { crash?: boolean }): Promise<void>;
  /** Starts it again on the same ports with the same data; resolves once it answers. */
  start(): Promise<void>;
  /** Stops it and deletes its files. */
  remove(): Promise<void>;
  /** The broker's recent log lines (for failure messages). */
  output(): string;
}

const STARTED = /Kafka Server started/;
const JVM_OPTIONS = [
  '-Xms128m',
  '-Xmx512m',
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-XX:-UsePerfData',
];

export async function startKafkaBroker(): Promise<TestKafkaBroker> {
  const classpathDir = await fetchKafkaBroker();
  const dir = await makeTempDir('confbus-kafka-');
  const [port, controllerPort, flakyPort] = await distinctFreePorts();
  const bootstrap = `127.0.0.1:${port}`;
  const proxy = await startProxy(flakyPort);
  const config = join(dir.path, 'server.properties');
  await writeFile(
    config,
    serverProperties({
      port,
      controllerPort,
      flakyPort,
      proxyPort: proxy.port,
      logDir: join(dir.path, 'data'),
    }),
  );
  await writeFile(join(dir.path, 'log4j2.properties'), LOG4J2);
  const java = (main: string, args: string[]) =>
    spawn(
      'java',
      [
        ...JVM_OPTIONS,
        `-Dlog4j2.configurationFile=${join(dir.path, 'log4j2.properties')}`,
        '-cp',
        `${classpathDir}/*`,
        main,
        ...args,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
  const lines: string[] = [];
  try {
    // `--cluster-id=…` in one word: a base64url id may start with '-', which the tool's parser would take
    // for an option if it came as a separate argument (one CI run in 64 failed that way).
    const format = java('kafka.tools.StorageTool', ['format', `--cluster-id=${clusterId()}`, '-c', config]);
    collect(format, lines);
    const [code] = (await once(format, 'exit')) as [number | null];
    if (code !== 0)
      throw new Error(`formatting the Kafka log dir failed (exit ${code}):\n${lines.join('\n')}`);
  } catch (error) {
    // The proxy's open server would keep the test process alive: a failed start must not hang the run.
    await proxy.close();
    await dir.remove();
    throw error;
  }

  let running: ChildProcess | undefined;
  const broker: TestKafkaBroker = {
    bootstrap,
    flakyBootstrap: `127.0.0.1:${proxy.port}`,
    cutFlaky: () => proxy.cut(),
    restoreFlaky: () => proxy.restore(),
    async start() {
      if (running) return;
      const child = java('kafka.Kafka', [config]);
      running = child;
      await waitUntilReady(child, collect(child, lines), bootstrap, lines);
    },
    async stop(options = {}) {
      const child = running;
      running = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(options.crash ? 'SIGKILL' : 'SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await exited;
      clearTimeout(timer);
    },
    async remove() {
      await broker.stop();
      await proxy.close();
      await dir.remove();
    },
    output: () => lines.slice(-200).join('\n'),
  };
  try {
    await broker.start();
  } catch (error) {
    await broker.remove();
    throw error;
  }
  return broker;
}

/** Waits for the "started" line, then for a metadata answer and a working group coordinator. */
async function waitUntilReady(
  child: ChildProcess,
  started: Promise<void>,
  bootstrap: string,
  lines: readonly string[],
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onExit: ((code: number | null) => void) | undefined;
  const failure = new Promise<never>((_, reject) => {
    const recent = () => lines.slice(-60).join('\n');
    timer = setTimeout(
      () => reject(new Error(`the Kafka broker was not ready within 120 s:\n${recent()}`)),
      120_000,
    );
    onExit = (code) =>
      reject(new Error(`the Kafka broker exited (${String(code)}) before it was ready:\n${recent()}`));
    child.once('exit', onExit);
  });
  try {
    await Promise.race([started.then(() => warmUp(bootstrap)), failure]);
  } finally {
    clearTimeout(timer);
    if (onExit) child.removeListener('exit', onExit);
  }
}

/**
 * The first consumer group on a fresh broker waits for the offsets topic to be created; doing it here keeps
 * that wait out of the tests' own timings. Retries are the client's (no sleeps of ours).
 */
async function warmUp(bootstrap: string): Promise<void> {
  const admin = new Admin({
    clientId: 'confbus-test-warmup',
    bootstrapBrokers: [bootstrap],
    retries: 40,
    retryDelay: 250,
  });
  try {
    const topics = await admin.listTopics();
    if (!topics.includes('confbus-warmup')) {
      await admin.createTopics({ topics: ['confbus-warmup'], partitions: 1, replicas: 1 });
    }
  } finally {
    await admin.close();
  }
  const consumer = new Consumer({
    clientId: 'confbus-test-warmup',
    groupId: `warmup.${randomBytes(4).toString('hex')}`,
    bootstrapBrokers: [bootstrap],
    retries: 40,
    retryDelay: 250,
  });
  try {
    const stream = await consumer.consume({ topics: ['confbus-warmup'], mode: 'latest', autocommit: false });
    await stream.close();
  } finally {
    await new Promise<void>((resolve) => consumer.close(true, () => resolve()));
  }
}

/** Keeps the last lines of the child's output; resolves once it logged that it started. */
function collect(child: ChildProcess, lines: string[]): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        lines.push(line);
        if (lines.length > 2000) lines.splice(0, 1000);
        if (STARTED.test(line)) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}

async function distinctFreePorts(): Promise<[number, number, number]> {
  const ports = new Set<number>();
  while (ports.size < 3) ports.add(await reserveFreePort());
  return [...ports] as [number, number, number];
}

/** A loopback TCP proxy to the broker's FLAKY listener that the test can cut and restore. */
async function startProxy(
  target: number,
): Promise<{ port: number; cut(): void; restore(): void; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let open = true;
  const server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      open = false;
      cut();
    },
    restore() {
      open = true;
    },
    close: () => {
      cut();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Kafka's cluster id format: a random UUID's 16 bytes, base64url without padding. */
function clusterId(): string {
  return randomBytes(16).toString('base64url');
}

interface Ports {
  port: number;
  controllerPort: number;
  flakyPort: number;
  proxyPort: number;
  logDir: string;
}

function serverProperties({ port, controllerPort, flakyPort, proxyPort, logDir }: Ports): string {
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
const LOG4J2 = `status = error
appender.console.type = Console
appender.console.name = CONSOLE
appender.console.layout.type = PatternLayout
appender.console.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = WARN
rootLogger.appenderRef.console.ref = CONSOLE
logger.raft.name = kafka.server.KafkaRaftServer
logger.raft.level = INFO
`;
