import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  ConfigClient,
  createManagementHandler,
  expressMiddleware,
  fastifyPlugin,
  type ManagementHandlerOptions,
} from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import Fastify from 'fastify';
import { CaptureLogger } from './support/capture-logger.js';

describe('management endpoints', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  const servers: Server[] = [];
  const clients: ConfigClient[] = [];
  let comment = 'one';
  let version = 0;

  const publish = () => {
    version++;
    stub.setEnvironment('app', 'default', {
      version: String(version).padStart(40, '0'),
      propertySources: [
        { name: 'repo/app.yml', source: { 'group.comment': comment, 'db.password': 'hunter2' } },
      ],
    });
  };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    publish();
  });
  after(async () => {
    for (const server of servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    for (const client of clients) await client.close();
    await stub.stop();
    await temp.remove();
  });

  const startClient = async (args: string[] = []) => {
    const client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=http://svc:pw@127.0.0.1:${stub.port}`,
        '--spring.application.name=app',
        ...args,
      ],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    clients.push(client);
    return client;
  };

  /** A real HTTP server whose non-management requests answer 418, so "not handled" is visible. */
  const serve = async (client: ConfigClient, options?: ManagementHandlerOptions) => {
    const handle = createManagementHandler(client, options);
    const server = createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(418).end('app');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  it('exposes only health by default; other endpoints answer 404 with a JSON error', async () => {
    const url = await serve(await startClient());
    const health = await fetch(`${url}/actuator/health`);
    assert.equal(health.status, 200);
    const body = (await health.json()) as { status: string; details: Record<string, unknown> };
    assert.equal(body.status, 'UP');
    assert.equal(body.details.source, 'server');
    assert.equal(body.details.version, String(version).padStart(40, '0'));
    const refresh = await fetch(`${url}/actuator/refresh`, { method: 'POST' });
    assert.equal(refresh.status, 404);
    assert.match(refresh.headers.get('content-type') ?? '', /application\/json/);
    assert.equal(((await refresh.json()) as { status: number }).status, 404);
    assert.equal((await fetch(`${url}/actuator/env`)).status, 404);
    assert.equal((await fetch(`${url}/other`)).status, 418);
  });

  it('POST /actuator/refresh answers the changed keys; env masks secrets; wrong methods get 405', async () => {
    const client = await startClient(['--management.endpoints.web.exposure.include=refresh,env,health']);
    const url = await serve(client);
    const none = await fetch(`${url}/actuator/refresh`, { method: 'POST' });
    assert.equal(none.status, 200);
    assert.deepEqual(await none.json(), []);
    comment = 'two';
    publish();
    const changed = await fetch(`${url}/actuator/refresh`, { method: 'POST' });
    assert.deepEqual(await changed.json(), ['config.client.version', 'group.comment']);
    assert.equal(client.getString('group.comment'), 'two');

    const env = await fetch(`${url}/actuator/env`);
    const text = await env.text();
    assert.ok(!text.includes('hunter2'), 'secret value shown');
    assert.ok(!text.includes('svc:pw@'), 'URI password shown');
    const parsed = JSON.parse(text) as {
      propertySources: Array<{ name: string; properties: Record<string, { value: unknown }> }>;
    };
    const remote = parsed.propertySources.find((ps) => ps.name === 'configserver:repo/app.yml');
    assert.deepEqual(remote?.properties['db.password'], { value: '******' });
    assert.deepEqual(remote?.properties['group.comment'], { value: 'two' });

    const wrongMethod = await fetch(`${url}/actuator/refresh`);
    assert.equal(wrongMethod.status, 405);
    assert.equal(wrongMethod.headers.get('allow'), 'POST');
    assert.equal((await fetch(`${url}/actuator/nope`)).status, 404);
    const links = (await (await fetch(`${url}/actuator`)).json()) as { _links: Record<string, unknown> };
    assert.deepEqual(Object.keys(links._links).sort(), ['env', 'health', 'refresh', 'self']);
  });

  it('serves Prometheus metrics when exposed: the configuration served, refreshes by outcome, the process', async () => {
    const client = await startClient(['--management.endpoints.web.exposure.include=prometheus,refresh']);
    const url = await serve(client);
    assert.equal((await fetch(`${url}/actuator/refresh`, { method: 'POST' })).status, 200);
    stub.setFailing(503);
    try {
      assert.equal((await fetch(`${url}/actuator/refresh`, { method: 'POST' })).status, 500);
    } finally {
      stub.setFailing(null);
    }
    const response = await fetch(`${url}/actuator/prometheus`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const version = client.status.version ?? 'none';
    assert.ok(
      text.includes(
        `confbus_client_config_info{application="app",profiles="default",label="",version="${version}",source="server"} 1`,
      ),
      text,
    );
    assert.match(text, /^confbus_client_refreshes_total\{outcome="success"\} 1$/m);
    assert.match(text, /^confbus_client_refreshes_total\{outcome="failure"\} 1$/m);
    assert.match(text, /^confbus_build_info\{version="\d+\.\d+\.\d+[^"]*",node_version="v\d+[^"]*"\} 1$/m);
    assert.match(text, /^process_cpu_user_seconds_total \d/m);
    assert.match(text, /^confbus_bus_connected 0$/m, 'the bus is off');
    assert.ok(!text.includes('pw'), 'no credentials in labels');
  });

  it('answers 500 naming the reason when a refresh fails', async () => {
    const url = await serve(await startClient(['--management.endpoints.web.exposure.include=refresh']));
    stub.setFailing(503);
    try {
      const response = await fetch(`${url}/actuator/refresh`, { method: 'POST' });
      assert.equal(response.status, 500);
      const body = (await response.json()) as { message: string };
      assert.match(body.message, /Refresh failed, keeping the current configuration .*answered 503/);
      assert.ok(!body.message.includes(':pw@'));
    } finally {
      stub.setFailing(null);
    }
  });

  it("takes extra endpoints (e.g. busrefresh/{destination}) under the same exposure rules, '*' = all", async () => {
    const calls: Array<{ segments: readonly string[]; body: unknown }> = [];
    const client = await startClient(['--management.endpoints.web.exposure.include=*']);
    const url = await serve(client, {
      extraEndpoints: {
        busrefresh: {
          methods: ['POST'],
          acceptsSubPath: true,
          handle: ({ segments, body }) => {
            calls.push({ segments, body });
            return { status: 204 };
          },
        },
      },
    });
    const response = await fetch(`${url}/actuator/busrefresh/orders:**`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"x":1}',
    });
    assert.equal(response.status, 204);
    assert.deepEqual(calls, [{ segments: ['orders:**'], body: { x: 1 } }]);
    const bad = await fetch(`${url}/actuator/busrefresh`, { method: 'POST', body: '{nope' });
    assert.equal(bad.status, 400);
    assert.equal((await fetch(`${url}/actuator/refresh/extra`, { method: 'POST' })).status, 404);

    const narrow = await serve(client, {
      exposure: ['health'],
      extraEndpoints: { busrefresh: { methods: ['POST'], handle: () => ({ status: 204 }) } },
    });
    assert.equal((await fetch(`${narrow}/actuator/busrefresh`, { method: 'POST' })).status, 404);
  });

  it('reports UNKNOWN health with source local when started without the server', async () => {
    const client = await ConfigClient.start({
      args: ['--spring.cloud.config.uri=http://127.0.0.1:1'],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    clients.push(client);
    const url = await serve(client);
    const body = (await (await fetch(`${url}/actuator/health`)).json()) as {
      status: string;
      details: { source: string };
    };
    assert.equal(body.status, 'UNKNOWN');
    assert.equal(body.details.source, 'local');
  });

  it('works as express-style middleware and as a fastify plugin', async () => {
    const client = await startClient(['--management.endpoints.web.exposure.include=refresh,health']);
    const middleware = expressMiddleware(client);
    const server = createServer((req, res) => middleware(req, res, () => res.writeHead(418).end('next')));
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    assert.equal((await fetch(`${url}/actuator/health`)).status, 200);
    assert.equal((await fetch(`${url}/elsewhere`)).status, 418);

    const app = Fastify();
    try {
      await app.register(fastifyPlugin(client));
      app.get('/hello', async () => ({ hello: 'world' }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const refresh = await fetch(`${base}/actuator/refresh`, { method: 'POST' });
      assert.equal(refresh.status, 200);
      assert.ok(Array.isArray(await refresh.json()));
      assert.equal((await fetch(`${base}/actuator/env`)).status, 404);
      assert.deepEqual(await (await fetch(`${base}/hello`)).json(), { hello: 'world' });
    } finally {
      await app.close();
    }
  });
});
