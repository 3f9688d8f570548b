/**
 * Like ../git-server-harness.ts, but keeps the raw log lines (for "no secret in the log" checks), exposes the
 * working directory, and lets a test touch the fastify instance before the server listens.
 */
import { makeTempDir } from '@confbus/testkit/temp-dir';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import type { ConfigServer } from '../../src/index.js';
import { createAndListen } from '../git-server-harness.js';

export interface PreparedServer {
  server: ConfigServer;
  base: string;
  logs: string[];
  /** The server's working directory (a temp dir; the git mirror lives below it). */
  workDir: string;
  stop(): Promise<void>;
}

export async function startPreparedServer(
  settings: Record<string, string>,
  prepare: (app: FastifyInstance) => void = () => undefined,
): Promise<PreparedServer> {
  const work = await makeTempDir('confbus-server-');
  const logs: string[] = [];
  const logger = pino({ level: 'trace' }, { write: (line: string) => void logs.push(line) });
  const args = Object.entries({
    'server.port': '0',
    'server.address': '127.0.0.1',
    'spring.cloud.config.server.git.basedir': `${work.path}/mirror`,
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  const { server, base } = await createAndListen(args, logger, work, (created) => prepare(created.app));
  return {
    server,
    base,
    logs,
    workDir: work.path,
    async stop() {
      await server.close();
      await work.remove();
    },
  };
}
