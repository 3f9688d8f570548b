/** Starts an in-process config server on real git (createConfigServer, as `confbus server` does) for a test. */
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import pino from 'pino';
import { type ConfigServer, createConfigServer, resolveServerSettings } from '../src/index.js';

export interface TestServer {
  server: ConfigServer;
  base: string;
  logs: Array<Record<string, unknown>>;
  get(
    path: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: string; headers: Headers; json: () => unknown }>;
  stop(): Promise<void>;
}

/**
 * Creates the server in `work` and opens its port. When either fails (tests that expect a start to fail), the
 * server is closed and the work folder removed, so that no `confbus-server-*` folder outlives the test.
 */
export async function createAndListen(
  args: string[],
  logger: pino.Logger,
  work: TempDir,
  prepare: (server: ConfigServer) => void = () => undefined,
  /** A settings file, as `confbus server` reads one. */
  file?: { path: string; text: string },
): Promise<{ server: ConfigServer; base: string }> {
  let server: ConfigServer | undefined;
  try {
    server = await createConfigServer({
      settings: resolveServerSettings({ args, env: {}, ...(file ? { file } : {}) }),
      logger,
      cwd: work.path,
    });
    prepare(server);
    return { server, base: await server.listen() };
  } catch (error) {
    await server?.close();
    await work.remove();
    throw error;
  }
}

export async function startGitTestServer(settings: Record<string, string>): Promise<TestServer> {
  const work = await makeTempDir('confbus-server-');
  const logs: Array<Record<string, unknown>> = [];
  // DEBUG unless the test sets logging.level.root (a fuzz test measures the cost of the lines a server writes).
  const logger = pino(
    { level: settings['logging.level.root'] ?? 'debug' },
    {
      write(line: string) {
        logs.push(JSON.parse(line) as Record<string, unknown>);
      },
    },
  );
  const args = Object.entries({
    'server.port': '0',
    'server.address': '127.0.0.1',
    'spring.cloud.config.server.git.basedir': `${work.path}/mirror`,
    ...settings,
  }).map(([key, value]) => `--${key}=${value}`);
  const { server, base } = await createAndListen(args, logger, work);
  return {
    server,
    base,
    logs,
    async get(path, headers = {}) {
      const response = await fetch(`${base}${path}`, { headers });
      const body = await response.text();
      return { status: response.status, body, headers: response.headers, json: () => JSON.parse(body) };
    },
    async stop() {
      await server.close();
      await work.remove();
    },
  };
}
