// A `git daemon` serving git:// on 127.0.0.1 with a free port, for transport tests.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { reserveFreePort } from './confbus-processes.js';

export interface GitDaemon {
  readonly port: number;
  /** git:// URL of `<basePath>/<repoName>`. */
  url(repoName: string): string;
  stop(): Promise<void>;
}

/** Whether something accepts connections on the loopback port (a server started by a test is up). */
export function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Serves every repository under `basePath`; resolves once the daemon accepts connections. */
export async function startGitDaemon(basePath: string, deadlineMs = 20_000): Promise<GitDaemon> {
  const port = await reserveFreePort();
  const child = spawn(
    'git',
    [
      'daemon',
      '--export-all',
      '--reuseaddr',
      '--listen=127.0.0.1',
      `--port=${port}`,
      `--base-path=${basePath}`,
      basePath,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
  };
  const deadline = Date.now() + deadlineMs;
  while (!(await canConnect(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`git daemon did not start on port ${port}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  return { port, url: (repoName) => `git://127.0.0.1:${port}/${repoName}`, stop };
}
