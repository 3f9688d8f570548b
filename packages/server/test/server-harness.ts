/**
 * The default test server: the whole config server (every route, the error handler, the fast path, /monitor)
 * wired on fakes — an in-memory repository in place of the Git mirror, a recording bus, a still clock — and
 * listening on 127.0.0.1. No git, no broker: tests on it belong to the fast tier (`*.fast.test.ts`). What needs
 * a real mirror, transport or broker starts one with git-server-harness.ts instead.
 */
import pino from 'pino';
import { loadServerEncryption } from '../src/encryption/index.js';
import { resolveServerSettings } from '../src/index.js';
import { resolveServerConfig } from '../src/server-config.js';
import { type ConfigServer, wireConfigServer } from '../src/wire-config-server.js';
import type { AuditRecord } from '../src/audit/index.js';
import { FakeBus } from './bus/fake-bus.js';
import { FakeClock } from './fake-clock.js';
import type { TestServer } from './git-server-harness.js';
import { FakeConfigRepository } from './repositories/fake-config-repository.js';

export type { TestServer } from './git-server-harness.js';

export interface FakeTestServer extends TestServer {
  /** The repository served: `push()` makes a new commit upstream. */
  readonly repository: FakeConfigRepository;
  /** The bus; undefined when the settings switch it off (spring.cloud.bus.enabled=false). */
  readonly bus: FakeBus | undefined;
  readonly clock: FakeClock;
  /** The audit lines written, in order (unless the settings name a confbus.audit.file). */
  readonly audit: AuditRecord[];
}

export interface FakeServerOptions {
  /** The files of the repository's first commit, on `label`. */
  files?: Record<string, string>;
  /** The repository's default label (default master, as a new git remote's). */
  label?: string;
}

/** Starts the server on `settings` (as `--key=value` arguments would set them) over a fake repository. */
export async function startTestServer(
  settings: Record<string, string>,
  { files = {}, label = 'master' }: FakeServerOptions = {},
): Promise<FakeTestServer> {
  const logs: Array<Record<string, unknown>> = [];
  const logger = pino(
    { level: settings['logging.level.root'] ?? 'debug' },
    { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const args = Object.entries({ 'server.port': '0', 'server.address': '127.0.0.1', ...settings }).map(
    ([key, value]) => `--${key}=${value}`,
  );
  const config = resolveServerConfig(resolveServerSettings({ args, env: {} }));
  const repository = new FakeConfigRepository(files, label);
  const bus = config.bus.bus ? new FakeBus() : undefined;
  const clock = new FakeClock();
  const audit: AuditRecord[] = [];
  const recording = { write: (record: AuditRecord) => void audit.push(record), close: async () => {} };
  const server: ConfigServer = await wireConfigServer({
    config,
    logger,
    clock,
    uri: 'fake://config',
    openMirror: () => ({ mirror: repository, close: async () => {} }),
    bus,
    encryption: await loadServerEncryption(config.encryption, process.cwd(), logger),
    ...(config.audit.file === undefined ? { auditSink: recording } : {}),
  });
  let base: string;
  try {
    base = await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
  return {
    server,
    base,
    logs,
    repository,
    bus,
    clock,
    audit,
    async get(path, headers = {}) {
      const response = await fetch(`${base}${path}`, { headers });
      const body = await response.text();
      return { status: response.status, body, headers: response.headers, json: () => JSON.parse(body) };
    },
    stop: () => server.close(),
  };
}
