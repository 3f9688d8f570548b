/**
 * A real single-node Kafka (KRaft: broker and controller in one JVM, no ZooKeeper) for tests, run from Apache
 * Kafka's own jars on Maven Central (interop/kafka-broker, fetched once by Maven). It listens on two free
 * loopback ports, is ready once it logged that it started and answers a metadata request (no sleeps), and can
 * be stopped and started again on the same ports and data (a broker restart). `remove()` deletes everything.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reserveFreePort } from './confbus-processes.js';
import {
  JVM_OPTIONS,
  LOG4J2,
  type SecureListeners,
  clusterId,
  scramFormatArguments,
  serverProperties,
} from './kafka-broker-config.js';
import { collect, waitUntilReady } from './kafka-readiness.js';
import { buildMavenProject, javaToolchain } from './maven.js';
import { type TcpProxy, startTcpProxy } from './tcp-proxy.js';
import { type TempDir, makeTempDir } from './temp-dir.js';

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

/** A single-node KRaft broker; `secure` adds SSL, SASL_SSL and SASL_PLAINTEXT listeners (kafka-broker-config.ts). */
export async function startKafkaBroker(secure?: SecureListeners): Promise<TestKafkaBroker> {
  const classpathDir = await fetchKafkaBroker();
  const dir = await makeTempDir('confbus-kafka-');
  // Apart from the secure listeners' ports too: the OS may hand out a port the caller reserved a moment ago.
  const [port, controllerPort, flakyPort] = await distinctFreePorts(
    secure ? [secure.sslPort, secure.saslSslPort, secure.saslPlaintextPort] : [],
  );
  // Cut: every connection through it dropped and new ones refused, until restored.
  const proxy = await startTcpProxy(flakyPort);
  const config = join(dir.path, 'server.properties');
  const java = javaLauncher(classpathDir, join(dir.path, 'log4j2.properties'));
  const lines: string[] = [];
  try {
    await writeFile(
      config,
      serverProperties(
        {
          port,
          controllerPort,
          flakyPort,
          proxyPort: proxy.port,
          logDir: join(dir.path, 'data'),
        },
        secure,
      ),
    );
    await writeFile(join(dir.path, 'log4j2.properties'), LOG4J2);
    await formatLogDir(java, config, lines, scramFormatArguments(secure));
  } catch (error) {
    // The proxy's open server would keep the test process alive: a failed start must not hang the run.
    await proxy.stop();
    await dir.remove();
    throw error;
  }
  const broker = brokerControls({ java, config, bootstrap: `127.0.0.1:${port}`, proxy, dir, lines });
  try {
    await broker.start();
  } catch (error) {
    await broker.remove();
    throw error;
  }
  return broker;
}

type JavaLauncher = (main: string, args: string[]) => ChildProcess;

/** Runs a class of the broker's jars, logging as `log4j2` says. */
function javaLauncher(classpathDir: string, log4j2: string): JavaLauncher {
  return (main, args) =>
    spawn(
      'java',
      [...JVM_OPTIONS, `-Dlog4j2.configurationFile=${log4j2}`, '-cp', `${classpathDir}/*`, main, ...args],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
}

/** Formats the broker's log dir for KRaft (once, before the first start). */
async function formatLogDir(
  java: JavaLauncher,
  config: string,
  lines: string[],
  extra: readonly string[] = [],
): Promise<void> {
  // `--cluster-id=…` in one word: a base64url id may start with '-', which the tool's parser would take
  // for an option if it came as a separate argument (one CI run in 64 failed that way).
  const format = java('kafka.tools.StorageTool', [
    'format',
    `--cluster-id=${clusterId()}`,
    '-c',
    config,
    ...extra,
  ]);
  collect(format, lines);
  const [code] = (await once(format, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`formatting the Kafka log dir failed (exit ${code}):\n${lines.join('\n')}`);
}

/** Starts, stops and cuts a formatted broker; `lines` collects its output. */
function brokerControls({
  java,
  config,
  bootstrap,
  proxy,
  dir,
  lines,
}: {
  java: JavaLauncher;
  config: string;
  bootstrap: string;
  proxy: TcpProxy;
  dir: TempDir;
  lines: string[];
}): TestKafkaBroker {
  let running: ChildProcess | undefined;
  const broker: TestKafkaBroker = {
    bootstrap,
    flakyBootstrap: `127.0.0.1:${proxy.port}`,
    cutFlaky: () => {
      proxy.refuse(true);
      proxy.cut();
    },
    restoreFlaky: () => proxy.refuse(false),
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
      await proxy.stop();
      await dir.remove();
    },
    output: () => lines.slice(-200).join('\n'),
  };
  return broker;
}

async function distinctFreePorts(taken: readonly number[]): Promise<[number, number, number]> {
  const ports = new Set<number>();
  while (ports.size < 3) {
    const port = await reserveFreePort();
    if (!taken.includes(port)) ports.add(port);
  }
  return [...ports] as [number, number, number];
}
