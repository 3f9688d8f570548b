/**
 * The real Spring peers of the interop tests, differential test and benchmarks: the Maven projects under
 * interop/ built through maven.ts, and started as child processes (through child-process.ts, so
 * `stopAllNodeProcesses()` stops them too) with their settings as `--key=value` arguments. A peer is
 * ready once it printed the port it bound and its /actuator/health answers UP.
 */
import { fileURLToPath } from 'node:url';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { messageOf } from '@confbus/core/internal';
import { startProcess, type NodeProcess } from './child-process.js';
import { buildMavenProject, javaToolchain } from './maven.js';

/** The Java projects, one directory each under interop/. */
/** `spring-client-hoxton` is the seed era's Spring (Boot 2.3, Hoxton: bootstrap settings, `bus-refresh`). */
export type SpringPeer = 'spring-client' | 'spring-client-hoxton' | 'spring-config-server';

export const INTEROP_DIR = fileURLToPath(new URL('../../../interop/', import.meta.url));

/**
 * JVM options for tests: C1 only and the serial collector start a Spring Boot app fastest on two cores.
 * Benchmarks pass their own (the JVM's defaults), so Spring's throughput is measured at its best.
 */
export const QUICK_START_JVM = ['-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC', '-Xss512k'];

const PORT_LINE = /confbus-interop: listening on port (\d+)/;

/** Why the Java suites cannot run here, or undefined when they can. */
export function springPeersUnavailable(): string | undefined {
  const toolchain = javaToolchain();
  return toolchain.ok ? undefined : toolchain.reason;
}

/** Maven goals that build interop/spring-client on the Kafka binder (target/spring-client-kafka.jar). */
export const SPRING_CLIENT_KAFKA_GOALS: readonly string[] = ['-Pbus-kafka', 'package'];

/**
 * Maven goals that build interop/spring-config-server with Spring's JDBC and Redis backends on its classpath
 * (target/spring-config-server-backends.jar): the differential test's database half and the JDBC benchmark.
 */
export const SPRING_CONFIG_SERVER_BACKENDS_GOALS: readonly string[] = ['-Pbackends', 'package'];

/** Builds (or reuses) a peer; resolves with its runnable jar. `goals` selects e.g. SPRING_CLIENT_KAFKA_GOALS. */
export async function buildSpringPeer(peer: SpringPeer, goals?: readonly string[]): Promise<string> {
  const build = await buildMavenProject(join(INTEROP_DIR, peer), { goals });
  if (build.jar === undefined) throw new Error(`The build of interop/${peer} produced no jar`);
  return build.jar;
}

export interface SpringProcess {
  /** `http://127.0.0.1:<port>`. */
  readonly url: string;
  readonly port: number;
  readonly process: NodeProcess;
  /** SIGTERM (Spring shuts down gracefully), SIGKILL after 15 s. */
  stop(): Promise<void>;
}

export interface SpringStartOptions {
  /** JVM options (default QUICK_START_JVM). */
  readonly jvm?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Deadline for the port line and a healthy /actuator/health (default 180 s: a loaded 2-core machine). */
  readonly timeoutMs?: number;
  /** Name in error messages (default: the jar's file name). */
  readonly name?: string;
}

/** Starts `java -jar <jar> --key=value...` without waiting (for tests on start-up failures). */
export function spawnSpringApp(
  jar: string,
  settings: Readonly<Record<string, string | number | boolean>>,
  options: SpringStartOptions = {},
): NodeProcess {
  const args = Object.entries(settings).map(([key, value]) => `--${key}=${value}`);
  // The JVM's temp folder (embedded Tomcat's work folder goes there) is the process's own and goes with it:
  // Tomcat leaves its `tomcat.<port>.<n>` folder behind in the shared /tmp otherwise.
  const jvmTemp = mkdtempSync(join(tmpdir(), 'confbus-spring-'));
  const child = startProcess(
    'java',
    [...(options.jvm ?? QUICK_START_JVM), `-Djava.io.tmpdir=${jvmTemp}`, '-jar', jar, ...args],
    options.env ?? {},
    {
      name: options.name ?? jar.split('/').pop(),
    },
  );
  void child.exited.then(() => rm(jvmTemp, { recursive: true, force: true }));
  return child;
}

/** Starts a Spring app and resolves once it is healthy (UP). */
export async function startSpringApp(
  jar: string,
  settings: Readonly<Record<string, string | number | boolean>>,
  options: SpringStartOptions = {},
): Promise<SpringProcess> {
  const child = spawnSpringApp(jar, settings, options);
  try {
    return await springAppReady(child, options.timeoutMs);
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/** Waits for a spawned Spring app's port line, then for its health to answer UP; fails at once if it exits. */
export async function springAppReady(child: NodeProcess, timeoutMs = 180_000): Promise<SpringProcess> {
  const deadline = Date.now() + timeoutMs;
  const port = Number(PORT_LINE.exec(await child.waitForLine(PORT_LINE, timeoutMs))?.[1]);
  const url = `http://127.0.0.1:${port}`;
  let exit: number | string | undefined;
  void child.exited.then((code) => (exit = code));
  let last = 'no answer yet';
  for (;;) {
    if (exit !== undefined) throw new Error(`${url} exited (${exit}) before it was healthy:\n${tail(child)}`);
    try {
      const response = await fetch(`${url}/actuator/health`);
      const body = await response.text();
      if (response.ok && (JSON.parse(body) as { status?: string }).status === 'UP') break;
      last = `${response.status} ${body}`;
    } catch (error) {
      last = messageOf(error);
    }
    if (Date.now() > deadline)
      throw new Error(`${url}/actuator/health never answered UP (last: ${last}):\n${tail(child)}`);
    await delay(200);
  }
  return { url, port, process: child, stop: async () => void (await child.stop(15_000)) };
}

function tail(child: NodeProcess): string {
  return child.lines.slice(-40).join('\n');
}
