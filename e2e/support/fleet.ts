/**
 * A small fleet for system tests: a real git remote, `confbus server` and `confbus sample-client` child
 * processes, started exactly as users start them (the CLI), all cleaned up by `stopFleet()`.
 */
import { fileURLToPath } from 'node:url';
import { type NodeProcess, startNodeProcess } from '@confbus/testkit/child-process';
import { makeTempDir } from '@confbus/testkit/temp-dir';

export const confbusBin = fileURLToPath(new URL('../../packages/cli/bin/confbus.js', import.meta.url));

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
): Promise<RunningServer> {
  const basedir = await tempDir('confbus-e2e-mirror-');
  const all = {
    'server.port': 0,
    'server.address': '127.0.0.1',
    'spring.cloud.config.server.git.basedir': basedir,
    ...settings,
  };
  const launch = async (port: number | string): Promise<{ process: NodeProcess; base: string }> => {
    const proc = startNodeProcess(confbusBin, ['server', ...toArgs({ ...all, 'server.port': port })]);
    cleanups.push(() => proc.stop());
    const line = await proc.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    return { process: proc, base: /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] as string };
  };
  const first = await launch(all['server.port']);
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

export async function startClient(
  settings: Record<string, string | number | boolean>,
): Promise<RunningClient> {
  const proc = startNodeProcess(confbusBin, [
    'sample-client',
    ...toArgs({
      'server.port': 0,
      'spring.application.name': 'sample',
      'management.endpoints.web.exposure.include': '*',
      ...settings,
    }),
  ]);
  cleanups.push(() => proc.stop());
  const line = await proc.waitForLine(/Listening on http:\/\/127\.0\.0\.1:\d+/, 60_000);
  const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1] as string;
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

/** Polls `check` until it returns true; rejects with `what` after the deadline. Returns the elapsed ms. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean> | boolean,
  timeoutMs = 30_000,
): Promise<number> {
  const started = Date.now();
  let delay = 10;
  for (;;) {
    if (await check()) return Date.now() - started;
    if (Date.now() - started > timeoutMs)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 200);
  }
}
