// The whole server (routes, error handler, fast path, monitor) wired on fakes: no git, no broker, no socket.
// What the real-git and real-broker suites check end to end, checked here on the ports in milliseconds.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import pino from 'pino';
import { resolveServerSettings } from '../src/index.js';
import { resolveServerConfig } from '../src/server-config.js';
import { type ConfigServer, wireConfigServer } from '../src/wire-config-server.js';
import { FakeBus } from './bus/fake-bus.js';
import { FakeClock } from './fake-clock.js';
import { FakeConfigRepository } from './repositories/fake-config-repository.js';

interface Wired {
  server: ConfigServer;
  repository: FakeConfigRepository;
  bus: FakeBus;
}

const servers: ConfigServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

async function wire(options: { bus?: boolean; settings?: Record<string, string> } = {}): Promise<Wired> {
  const repository = new FakeConfigRepository({
    'application.yml': 'shared: everyone\n',
    'foo.yml': 'greeting: hello\n',
    'foo-dev.yml': 'greeting: hello dev\n',
    'bar.yml': 'greeting: bar\n',
  });
  const bus = new FakeBus();
  const args = Object.entries({ 'server.port': '0', ...options.settings }).map(([k, v]) => `--${k}=${v}`);
  const server = await wireConfigServer({
    config: resolveServerConfig(resolveServerSettings({ args, env: {} })),
    logger: pino({ level: 'silent' }),
    clock: new FakeClock(),
    uri: 'fake://config',
    openMirror: () => ({ mirror: repository, close: async () => {} }),
    bus: options.bus === false ? undefined : bus,
  });
  servers.push(server);
  return { server, repository, bus };
}

const get = async (server: ConfigServer, url: string) => {
  const response = await server.app.inject({ method: 'GET', url });
  return { status: response.statusCode, headers: response.headers, json: () => response.json() };
};

const pushWebhook = (server: ConfigServer, files: string[]) =>
  server.app.inject({
    method: 'POST',
    url: '/monitor',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    payload: JSON.stringify({ ref: 'refs/heads/main', commits: [{ id: 'x', modified: files }] }),
  });

describe('wireConfigServer: the environment endpoint on a fake repository', () => {
  it('answers 503 CONFBUS_SERVER_BUSY with Retry-After when builds are at their bound, and serves once they are not', async () => {
    const { server, repository } = await wire({
      settings: {
        'confbus.server.max-concurrent-builds': '1',
        'confbus.server.max-queued-builds': '0',
        // The contract gate reads the commit's file list before any build: held here, it would hold both requests.
        'confbus.contracts.gate.enabled': 'false',
      },
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const listFiles = repository.listFiles.bind(repository);
    repository.listFiles = async (commit) => {
      await held;
      return listFiles(commit);
    };
    const first = get(server, '/foo/dev');
    await new Promise((resolve) => setImmediate(resolve));
    const refused = await get(server, '/bar/default');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers['retry-after'], '1');
    assert.equal((refused.json() as { code: string }).code, 'CONFBUS_SERVER_BUSY');
    release();
    assert.equal((await first).status, 200);
    assert.equal((await get(server, '/bar/default')).status, 200);
  });

  it('serves the files of the application and profile, highest precedence first, with the commit served', async () => {
    const { server, repository } = await wire();
    const commit = (await repository.resolveFetched(null)).commit;
    const response = await get(server, '/foo/dev');
    assert.equal(response.status, 200);
    assert.equal(response.headers['x-config-version'], commit);
    const body = response.json() as { name: string; propertySources: Array<{ name: string }> };
    assert.equal(body.name, 'foo');
    assert.deepEqual(
      body.propertySources.map((s) => s.name),
      ['fake://config/foo-dev.yml', 'fake://config/foo.yml', 'fake://config/application.yml'],
    );
  });

  it('answers an unknown label with 404 and a Spring error body naming it', async () => {
    const { server } = await wire();
    const response = await get(server, '/foo/dev/no-such-branch');
    assert.equal(response.status, 404);
    const body = response.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).slice(0, 5), ['timestamp', 'status', 'error', 'message', 'path']);
    assert.equal(body.status, 404);
    assert.equal(body.code, 'CONFBUS_NO_SUCH_LABEL');
    assert.match(String(body.message), /no-such-branch/);
  });

  it('answers a repeated request from the cache: the label is checked again, no file is read again', async () => {
    const { server, repository } = await wire();
    const first = await get(server, '/foo/dev');
    const reads = { ...repository.calls };
    const second = await get(server, '/foo/dev');
    assert.deepEqual(second.json(), first.json());
    assert.equal(repository.calls.resolve, reads.resolve + 1, 'the freshness check was skipped');
    assert.equal(repository.calls.listFiles, reads.listFiles);
    assert.equal(repository.calls.readFile, reads.readFile);
  });

  it('serves a push made before the request, and marks a stale answer when the upstream is down', async () => {
    const { server, repository } = await wire();
    await get(server, '/foo/default');
    const pushed = repository.push({ 'foo.yml': 'greeting: pushed\n' });
    const fresh = await get(server, '/foo/default');
    assert.equal(fresh.headers['x-config-version'], pushed);
    assert.match(JSON.stringify(fresh.json()), /pushed/);
    repository.upstreamDown = true;
    repository.push({ 'foo.yml': 'greeting: unseen\n' });
    const stale = await get(server, '/foo/default');
    assert.equal(stale.headers['x-config-version'], pushed);
    assert.equal(stale.headers['x-config-stale'], 'true');
  });
});

describe('wireConfigServer: the repeat-request fast path, over loopback HTTP', () => {
  it('answers repeats itself with the headers of each answer: media type, new commit, stale', async () => {
    const { server, repository, bus } = await wire({ settings: { 'server.address': '127.0.0.1' } });
    const base = await server.listen();
    assert.equal(bus.joined, base, 'the bus joined with the bound address');
    const v2 = 'application/vnd.spring-cloud.config-server.v2+json';
    const fetchFoo = async (accept?: string) => {
      const response = await fetch(`${base}/foo/dev`, { headers: accept ? { accept } : {} });
      const body = await response.text();
      return { headers: response.headers, body };
    };
    const first = await fetchFoo();
    const served = server.fastPath?.served ?? 0;
    const repeats = [await fetchFoo(v2), await fetchFoo(), await fetchFoo(v2)];
    assert.equal(server.fastPath?.served, served + 3, 'the repeats went through the fast path');
    assert.deepEqual(
      repeats.map((r) => r.headers.get('content-type')),
      [v2, 'application/json', v2],
    );
    // The v2 media type carries each value's origin (Spring's origin tracking); the plain one does not.
    const [v2First, plain, v2Again] = repeats.map((r) => r.body);
    assert.equal(plain, first.body);
    assert.equal(v2Again, v2First);
    assert.match(v2First ?? '', /"greeting":\{"value":"hello dev","origin":"1:\d+"\}/);
    for (const repeat of repeats) {
      assert.equal(repeat.headers.get('content-length'), String(Buffer.byteLength(repeat.body)));
    }
    const pushed = repository.push({ 'foo.yml': 'greeting: pushed\n' });
    const fresh = await fetchFoo();
    assert.equal(fresh.headers.get('x-config-version'), pushed);
    assert.equal(fresh.headers.get('content-length'), String(Buffer.byteLength(fresh.body)));
    assert.match(fresh.body, /pushed/);
    repository.upstreamDown = true;
    const stale = await fetchFoo();
    assert.equal(stale.headers.get('x-config-stale'), 'true');
    repository.upstreamDown = false;
    const recovered = await fetchFoo();
    assert.equal(recovered.headers.get('x-config-stale'), null);
    assert.equal(server.fastPath?.served, served + 6);
  });
});

describe('wireConfigServer: /monitor on a fake repository and bus', () => {
  it('re-reads the repository and publishes one event per affected application, listed in refresh-events', async () => {
    const { server, repository, bus } = await wire();
    const commit = repository.push({ 'foo.yml': 'greeting: new\n', 'bar.yml': 'greeting: new\n' });
    const response = await pushWebhook(server, ['foo.yml', 'bar.yml']);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), ['foo', 'bar']);
    assert.equal(repository.calls.refreshNow, 1);
    assert.deepEqual(
      bus.published.map((e) => e.destinationService),
      ['foo:**', 'bar:**'],
    );
    const events = (await get(server, '/actuator/refresh-events')).json() as Array<Record<string, unknown>>;
    assert.equal(events.length, 2);
    assert.ok(
      events.every((e) => JSON.stringify(e).includes(commit)),
      JSON.stringify(events),
    );
  });

  it('answers 503 CONFBUS_BUS_PUBLISH_FAILED when publishing fails, and the redelivery publishes', async () => {
    const { server, repository, bus } = await wire();
    repository.push({ 'foo.yml': 'greeting: new\n' });
    bus.failing = true;
    const failed = await pushWebhook(server, ['foo.yml']);
    assert.equal(failed.statusCode, 503, failed.body);
    const body = failed.json() as { code: string; message: string };
    assert.equal(body.code, 'CONFBUS_BUS_PUBLISH_FAILED');
    assert.match(body.message, /broker gone/);
    assert.equal(bus.published.length, 0);
    bus.failing = false;
    const redelivered = await pushWebhook(server, ['foo.yml']);
    assert.equal(redelivered.statusCode, 200, redelivered.body);
    assert.deepEqual(
      bus.published.map((e) => e.destinationService),
      ['foo:**'],
    );
  });

  it('parses a changed file once: the environments rebuilt after the webhook find it parsed by its check', async () => {
    const { server, repository } = await wire();
    assert.equal((await get(server, '/foo/default')).status, 200);
    const environments = server.environments!;
    repository.push({ 'application.yml': 'shared: everyone\n', 'foo.yml': 'greeting: new\n' });
    const reads = repository.calls.readFile;
    const parses = environments.parses;
    assert.equal((await pushWebhook(server, ['foo.yml'])).statusCode, 200);
    const after = await get(server, '/foo/default');
    assert.equal(after.status, 200);
    assert.match(JSON.stringify(after.json()), /greeting":"new/);
    assert.equal(repository.calls.readFile - reads, 1, 'foo.yml read once, by the check');
    assert.equal(environments.parses - parses, 1, 'and parsed once');
  });

  it('without a bus, re-reads the repository and says nothing was published (503 CONFBUS_BUS_DISABLED)', async () => {
    const { server, repository, bus } = await wire({
      bus: false,
      settings: { 'confbus.watch.enabled': 'false' },
    });
    repository.push({ 'foo.yml': 'greeting: new\n' });
    const response = await pushWebhook(server, ['foo.yml']);
    assert.equal(response.statusCode, 503, response.body);
    assert.equal((response.json() as { code: string }).code, 'CONFBUS_BUS_DISABLED');
    assert.equal(repository.calls.refreshNow, 1);
    assert.equal(bus.attempts, 0);
  });
});
