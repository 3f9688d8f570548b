/**
 * A small fleet for system tests: a real git remote, `confbus server` and `confbus sample-client` child
 * processes, started exactly as users start them (the CLI), all cleaned up by `stopFleet()`.
 */
import { rm } from 'node:fs/promises';
import type { NodeProcess } from '@confbus/testkit/child-process';
import {
  CONFBUS_BIN,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
} from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';

export const confbusBin = CONFBUS_BIN;

const cleanups: Array<() => Promise<unknown>> = [];

export async function stopFleet(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
}

export async function tempDir(prefix = 'confbus-e2e-'): Promise<string> {
  const dir = await makeTempDir(prefix);
  cleanups.push(dir.remove);
  return dir.path;
}

function toArgs(settings: Record<string, string | number | boolean>): string[] {
  return Object.entries(settings).map(([key, value]) => `--${key}=${value}`);
}

export interface RunningServer {
  readonly base: string;
  readonly port: number;
  process: NodeProcess;
  health(): Promise<HealthJson>;
  stop(): Promise<void>;
  /** Starts it again on the same port with the same settings. */
  restart(): Promise<void>;
}

export interface HealthJson {
  status: string;
  components: Record<string, { status: string; details?: Record<string, unknown> }>;
}

export async function startServer(
  settings: Record<string, string | number | boolean>,
  options: ClientOptions = {},
): Promise<RunningServer> {
  const basedir = await tempDir('confbus-e2e-mirror-');
  // Named repositories' mirrors live beside an explicit basedir (open-repositories.ts).
  cleanups.push(() => rm(`${basedir}.repos`, { recursive: true, force: true }));
  const { 'spring.cloud.config.server.git.uri': gitUri, ...rest } = settings;
  const launch = async (port: number): Promise<{ process: NodeProcess; base: string }> => {
    const started = await startConfbusServer({
      gitUri: String(gitUri),
      basedir,
      port,
      args: toArgs(rest),
      ...(options.env ? { env: options.env } : {}),
    });
    cleanups.push(() => started.process.stop());
    return { process: started.process, base: started.url };
  };
  const first = await launch(0);
  const server: RunningServer = {
    base: first.base,
    port: Number(new URL(first.base).port),
    process: first.process,
    async health() {
      return (await (await fetch(`${server.base}/actuator/health`)).json()) as HealthJson;
    },
    async stop() {
      await server.process.stop();
    },
    async restart() {
      server.process = (await launch(server.port)).process;
    },
  };
  return server;
}

export interface RunningClient {
  readonly base: string;
  process: NodeProcess;
  get(path: string): Promise<{ status: number; json: unknown }>;
  post(path: string): Promise<{ status: number; json: unknown }>;
  stop(): Promise<void>;
}

export interface ClientOptions {
  /** Environment variables, e.g. credentials, which production passes that way rather than as arguments. */
  env?: Readonly<Record<string, string>>;
}

export async function startClient(
  settings: Record<string, string | number | boolean>,
  options: ClientOptions = {},
): Promise<RunningClient> {
  const args = toArgs({
    'server.port': 0,
    'spring.application.name': 'sample',
    'management.endpoints.web.exposure.include': '*',
    ...settings,
  });
  const started = await startSampleClientProcess(args, options.env ?? {}, { timeoutMs: 90_000 });
  const proc = started.process;
  cleanups.push(() => proc.stop());
  const base = started.url;
  const call = async (method: string, path: string) => {
    const response = await fetch(`${base}${path}`, { method });
    const text = await response.text();
    return { status: response.status, json: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  return {
    base,
    process: proc,
    get: (path) => call('GET', path),
    post: (path) => call('POST', path),
    stop: () => proc.stop().then(() => undefined),
  };
}

/** Polls `check` until it returns true; rejects naming `what` after the deadline. Returns the elapsed ms. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
): Promise<number> {
  const started = Date.now();
  await waitFor(what, check, { timeoutMs, intervalMs: 25 });
  return Date.now() - started;
}
