/**
 * A watch change that carries the new environment (`?include=environment`, docs/watch.md) is applied by the
 * client exactly as a fetched answer — `{cipher}` values decrypted with the client's key, integers beyond 2^53
 * kept, the ack sent with the new version — without a GET; a change without it, or whose environment is not the
 * announced version, or that came from a server other than the one a fetch asks first, is re-fetched as before.
 * Against a small in-process server speaking the watch protocol (no config server needed).
 */
import assert from 'node:assert/strict';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { AesTextEncryptor, silentLogger } from '@confbus/core';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { z } from 'zod';
import { ConfigWatcher } from '../../src/watch/config-watcher.js';

const KEY = 'client side key';
const encryptor = new AesTextEncryptor(KEY, 'deadbeef');
const cipher = (text: string) => `{cipher}${encryptor.encrypt(text)}`;
const V1 = '1'.repeat(40);

/** The environment endpoint's plain JSON for `app/default` at `version`. */
const environmentText = (version: string, source: string) =>
  `{"name":"app","profiles":["default"],"label":null,"version":"${version}","state":"","propertySources":[{"name":"repo/app.yml","source":${source}}]}`;

/** A config server reduced to what the watcher uses: the environment GET, the stream and the acks. */
class WatchServer {
  readonly gets: Array<string | undefined> = [];
  readonly acks: Array<{ event: string; version?: string; outcome?: string; reason?: string }> = [];
  readonly watchUrls: string[] = [];
  environment = environmentText(V1, `{"greeting":"hello","db.password":"${cipher('first')}"}`);
  #streams: ServerResponse[] = [];
  readonly server: Server = createServer((req, res) => this.#answer(req, res));

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  /** Sends a change to every open stream: its JSON as the server writes it (`environment` appended as is). */
  /** The id of the change pushed last. */
  lastEvent = '';

  push(version: string, keys: string[], environment?: string): void {
    this.lastEvent = crypto.randomUUID();
    const change = JSON.stringify({ event: this.lastEvent, version, from: V1, keys });
    const data = environment === undefined ? change : `${change.slice(0, -1)},"environment":${environment}}`;
    for (const stream of this.#streams) stream.write(`id: ${version}\nevent: change\ndata: ${data}\n\n`);
  }

  async stop(): Promise<void> {
    for (const stream of this.#streams) stream.destroy();
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  #answer(req: IncomingMessage, res: ServerResponse): void {
    const url = req.url ?? '/';
    if (url.startsWith('/-/watch/acks')) {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        this.acks.push(JSON.parse(body) as WatchServer['acks'][number]);
        res.writeHead(202).end('{}');
      });
      return;
    }
    if (url.startsWith('/-/watch/')) {
      this.watchUrls.push(url);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('retry: 2000\n\n');
      this.#streams.push(res);
      return;
    }
    this.gets.push(req.headers['x-config-min-version'] as string | undefined);
    res.writeHead(200, { 'content-type': 'application/json' }).end(this.environment);
  }
}

describe('a watch change carrying the environment', () => {
  const server = new WatchServer();
  let temp: { path: string; remove: () => Promise<void> };
  let client: ConfigClient;

  before(async () => {
    await server.start();
    temp = await makeTempDir();
    client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${server.url}`,
        '--spring.application.name=app',
        `--encrypt.key=${KEY}`,
      ],
      env: {},
      cwd: temp.path,
      logger: silentLogger,
    });
    await waitFor('the stream open', () => client.watchState === 'open');
  });
  after(async () => {
    await client?.close();
    await server.stop();
    await temp?.remove();
  });

  it('asks for the environment with its subscription', () => {
    assert.match(server.watchUrls[0] ?? '', /^\/-\/watch\/app\/default\?version=1{40}&include=environment$/);
  });

  it('is applied without a GET, decrypted with the client key, and acked with the new version', async () => {
    const gets = server.gets.length;
    const v2 = '2'.repeat(40);
    const big = '123456789012345678901234567890';
    server.push(
      v2,
      ['big', 'db.password', 'greeting'],
      environmentText(v2, `{"greeting":"hi","db.password":"${cipher('second')}","big":${big}}`),
    );
    await waitFor('the new version applied', () => client.getString('greeting') === 'hi');
    assert.equal(client.getString('db.password'), 'second', 'decrypted as a fetched value is');
    assert.equal(client.getString('big'), big, 'an integer beyond 2^53 kept to the last digit');
    await waitFor('the ack', () => server.acks.some((ack) => ack.version === v2));
    assert.equal(server.gets.length, gets, 'no GET: the change carried the environment');
  });

  it('re-fetches a change without the environment, asking for at least its version', async () => {
    const v3 = '3'.repeat(40);
    server.environment = environmentText(v3, `{"greeting":"fetched","db.password":"${cipher('third')}"}`);
    server.push(v3, ['greeting']);
    await waitFor('the fetched version applied', () => client.getString('greeting') === 'fetched');
    assert.equal(server.gets.at(-1), v3);
    assert.equal(client.getString('db.password'), 'third');
  });

  it('re-fetches when the environment carried is not the announced version', async () => {
    const v4 = '4'.repeat(40);
    const gets = server.gets.length;
    server.environment = environmentText(v4, '{"greeting":"from the GET"}');
    server.push(v4, ['greeting'], environmentText('5'.repeat(40), '{"greeting":"not this one"}'));
    await waitFor('the fetched version applied', () => client.getString('greeting') === 'from the GET');
    assert.equal(server.gets.length, gets + 1);
  });
  // Last: the schema bound here holds for the rest of the client's life.
  it('acks a change its own schema refuses as rejected, with the reason, and keeps its values', async () => {
    const v6 = '6'.repeat(40);
    const Group = z.object({ name: z.string().min(3) });
    server.push(v6, ['group.name'], environmentText(v6, '{"greeting":"fetched","group.name":"good"}'));
    await waitFor('group.name applied', () => client.getString('group.name') === 'good');
    assert.deepEqual(client.bind('group', Group), { name: 'good' });
    const v7 = '7'.repeat(40);
    server.push(v7, ['group.name'], environmentText(v7, '{"greeting":"fetched","group.name":"no"}'));
    const ack = await waitFor('the ack', () => server.acks.find((a) => a.event === server.lastEvent));
    assert.equal(ack.outcome, 'rejected');
    assert.match(
      ack.reason ?? '',
      /rejected by the application's schema: Invalid configuration under 'group'/,
    );
    assert.equal(client.getString('group.name'), 'good', 'kept its values');
    const applied = server.acks.find((a) => a.version === v6);
    assert.equal(applied?.outcome, 'applied');
  });
});

describe('a watch change from a server a fetch does not ask first', () => {
  it('is re-fetched, not applied', async () => {
    const server = new WatchServer();
    await server.start();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedUrl = `http://127.0.0.1:${(closed.address() as { port: number }).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const applied: string[] = [];
    const refreshed: string[] = [];
    const target = (url: string) => ({
      shown: url,
      instanceHeaders: {},
      label: undefined,
      url: new URL(`${url}/app/default`),
      authorization: undefined,
    });
    const watcher = new ConfigWatcher({
      source: {
        watchTargets: () => ({
          targets: [target(closedUrl), target(server.url)],
          agents: { http: undefined as never, https: undefined as never },
        }),
      },
      settings: {
        enabled: true,
        withBus: false,
        reconnectInitial: 10,
        reconnectMax: 10,
        idleTimeout: 60_000,
      },
      target: {
        refresh: async (version) => void refreshed.push(version),
        apply: async (environment) => void applied.push(environment.version ?? ''),
        currentVersion: () => V1,
      },
      serviceId: 'app:default:0:test',
      logger: silentLogger,
    });
    try {
      watcher.start();
      await waitFor('the stream open on the second server', () => watcher.state === 'open');
      const v2 = '2'.repeat(40);
      server.push(v2, ['greeting'], environmentText(v2, '{"greeting":"hi"}'));
      await waitFor('the refresh', () => refreshed.length === 1);
      assert.deepEqual([refreshed, applied], [[v2], []]);
    } finally {
      watcher.stop();
      await server.stop();
    }
  });
});
