// Child processes for the benchmarks: start, wait until they say they listen, stop (TERM, then KILL).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { clearTimeout, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '@confbus/server';
import { onCleanup } from './cleanup.mjs';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
// CONFBUS_BENCH_BIN benchmarks another launcher with the same command line (e.g. an installed build).
const CONFBUS_BIN =
  process.env.CONFBUS_BENCH_BIN ??
  fileURLToPath(new URL('../../packages/cli/bin/confbus.js', import.meta.url));

/**
 * Spawns `command` and resolves once `ready(line)` returns a value for a stdout line.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, value: unknown, output: () => string, stop: () => Promise<void> }>}
 */
export async function startProcess({
  name,
  command,
  args,
  env,
  cwd = REPO_ROOT,
  ready,
  deadlineMs = 60_000,
}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Keep a bounded tail of the output for error messages.
  let tail = '';
  const remember = (line) => {
    tail = (tail + line + '\n').slice(-8_000);
  };
  createInterface({ input: child.stderr }).on('line', remember);
  const lines = createInterface({ input: child.stdout });
  const exited = once(child, 'exit');

  const stop = onCleanup(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  });

  let timer;
  try {
    const value = await new Promise((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${name} did not become ready within ${deadlineMs} ms:\n${tail}`)),
        deadlineMs,
      );
      lines.on('line', (line) => {
        remember(line);
        const v = ready(line);
        if (v !== undefined) resolve(v);
      });
      child.once('error', (err) => reject(new Error(`${name} could not start: ${err.message}`)));
      child.once('exit', (code, signal) =>
        reject(new Error(`${name} exited (code ${code}, signal ${signal}) before it was ready:\n${tail}`)),
      );
    });
    return { child, value, output: () => tail, stop };
  } catch (err) {
    await stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

/** CONFBUS_BENCH_WITHOUT_NODE_FLAGS=1: the servers on Node's defaults, to measure what the flags change. */
const WITHOUT_SERVER_NODE_FLAGS = process.env.CONFBUS_BENCH_WITHOUT_NODE_FLAGS === '1';

/**
 * Starts `confbus server` on 127.0.0.1:0 and resolves with its base URL once it logs that it listens. Node gets
 * the server's flags, as `npm start` and the deploy recipes give them: the server as deployed.
 */
export async function startConfbusServer({
  uri,
  basedir,
  refreshRate,
  extraArgs = [],
  nodeArgs = [],
  env = {},
}) {
  const proc = await startProcess({
    name: 'confbus server',
    command: process.execPath,
    args: [
      ...(WITHOUT_SERVER_NODE_FLAGS ? [] : SERVER_NODE_FLAGS),
      ...nodeArgs,
      CONFBUS_BIN,
      'server',
      '--server.port=0',
      '--server.address=127.0.0.1',
      `--spring.cloud.config.server.git.uri=${uri}`,
      `--spring.cloud.config.server.git.basedir=${basedir}`,
      `--spring.cloud.config.server.git.refresh-rate=${refreshRate}`,
      ...extraArgs,
    ],
    // Benchmarks measure the server, not its logger writing to a pipe nobody reads.
    env: { NODE_ENV: 'production', ...env },
    ready: (line) => {
      let msg;
      try {
        msg = JSON.parse(line).msg;
      } catch {
        return undefined;
      }
      const m = typeof msg === 'string' && /^Config server listening on (https?:\/\/\S+)/.exec(msg);
      return m ? m[1].replace(/\/$/, '') : undefined;
    },
  });
  return { url: proc.value, stop: proc.stop, output: proc.output, child: proc.child };
}

/** Starts a baseline script that prints `LISTENING <url>` on stdout. */
export async function startBaseline(scriptUrl, args = []) {
  const proc = await startProcess({
    name: fileURLToPath(scriptUrl),
    command: process.execPath,
    args: [fileURLToPath(scriptUrl), ...args],
    ready: (line) => /^LISTENING (http:\/\/\S+)/.exec(line)?.[1],
  });
  return { url: proc.value, stop: proc.stop, output: proc.output, child: proc.child };
}
