/**
 * Runs the real `confbus` command (server and sample client) as child processes for end-to-end
 * tests, and polls conditions with a deadline. Processes go through child-process.ts, so
 * `stopAllNodeProcesses()` in `after` stops whatever a test left running.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startNodeProcess, type NodeProcess } from './child-process.js';

// Kept importable from here, where the tests first found it.
export { waitFor } from './wait-for.js';

/** The CLI launcher; it runs the built dist/, so `npx tsc -b` must have run. */
export const CONFBUS_BIN = fileURLToPath(new URL('../../cli/bin/confbus.js', import.meta.url));

export interface ConfbusProcess {
  /** `http://127.0.0.1:<port>` the process listens on. */
  readonly url: string;
  readonly port: number;
  readonly process: NodeProcess;
}

export interface ConfbusServerOptions {
  /** Upstream git repository (`file://…` or a path). */
  readonly gitUri: string;
  /** Where the server keeps its mirror (a temp dir of the test). */
  readonly basedir: string;
  /** Fixed port (default 0 = any free port). */
  readonly port?: number;
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
  readonly timeoutMs?: number;
}

const SERVER_LISTENING = /Config server listening on http:\/\/127\.0\.0\.1:(\d+)/;
const CLIENT_LISTENING = /Listening on http:\/\/127\.0\.0\.1:(\d+)/;

/** `confbus server` on 127.0.0.1; resolves once it logged that it listens. */
export async function startConfbusServer(options: ConfbusServerOptions): Promise<ConfbusProcess> {
  const child = startNodeProcess(
    CONFBUS_BIN,
    [
      'server',
      `--server.port=${options.port ?? 0}`,
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${options.gitUri}`,
      `--spring.cloud.config.server.git.basedir=${options.basedir}`,
      ...(options.args ?? []),
    ],
    options.env ?? {},
    { cwd: options.cwd },
  );
  return listeningOn(child, SERVER_LISTENING, options.timeoutMs);
}

/** Starts `confbus sample-client [args]` without waiting (for tests on start-up failures). */
export function spawnSampleClient(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  cwd?: string,
): NodeProcess {
  return startNodeProcess(CONFBUS_BIN, ['sample-client', ...args], env, { cwd });
}

/** `confbus sample-client [args]`; resolves once it logged that it listens. */
export async function startSampleClientProcess(
  args: readonly string[],
  env: Readonly<Record<string, string | undefined>> = {},
  options: { cwd?: string; timeoutMs?: number } = {},
): Promise<ConfbusProcess> {
  return listeningOn(spawnSampleClient(args, env, options.cwd), CLIENT_LISTENING, options.timeoutMs);
}

/**
 * Waits for the process's "listening" line. Only 127.0.0.1 is matched: the tests bind nothing else.
 * The default deadline is generous: three Node processes starting on a loaded 2-core machine.
 */
async function listeningOn(child: NodeProcess, pattern: RegExp, timeoutMs = 60_000): Promise<ConfbusProcess> {
  const line = await child.waitForLine(pattern, timeoutMs);
  const port = Number(pattern.exec(line)?.[1]);
  return { url: `http://127.0.0.1:${port}`, port, process: child };
}

/** A port that was free a moment ago (for "server starts later on a known port" tests). */
export async function reserveFreePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('Could not reserve a port');
  return address.port;
}

/** GET as JSON (status and parsed body). */
export async function getJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

/** POST without a body; returns status and the parsed JSON body (if any). */
export async function postJson(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { method: 'POST' });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

export interface CommandRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs a short-lived `confbus` command (`encrypt`, `decrypt`, `help`) to completion, with `input` on its
 * standard input (closed at once when undefined) and only PATH plus `env` in its environment.
 */
export function runConfbusCommand(
  args: readonly string[],
  options: { input?: string; env?: Readonly<Record<string, string>>; cwd?: string } = {},
): Promise<CommandRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CONFBUS_BIN, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
