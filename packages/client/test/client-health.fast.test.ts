import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { ConfigClient, createManagementHandler } from '@confbus/client';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe("client /actuator/health groups (liveness, readiness) as on the server's", () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };
  let client: ConfigClient;
  let server: Server;
  let url: string;

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    stub.setEnvironment('app', 'default', {
      version: 'c'.repeat(40),
      propertySources: [{ name: 'repo/app.yml', source: { 'group.comment': 'one' } }],
    });
    client = await ConfigClient.start({
      args: [`--spring.cloud.config.uri=${stub.url}`, '--spring.application.name=app'],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    const handle = createManagementHandler(client);
    server = createServer((req, res) => {
      if (!handle(req, res)) res.writeHead(418).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/actuator/health`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await client.close();
    await stub.stop();
    await temp.remove();
  });

  const get = async (path: string) => {
    const response = await fetch(`${url}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers the liveness and readiness groups with their state components', async () => {
    assert.deepEqual(await get('/liveness'), {
      status: 200,
      body: { status: 'UP', components: { livenessState: { status: 'UP' } } },
    });
    assert.deepEqual(await get('/readiness'), {
      status: 200,
      body: { status: 'UP', components: { readinessState: { status: 'UP' } } },
    });
    assert.deepEqual(await get('/livenessState'), { status: 200, body: { status: 'UP' } });
  });

  it('answers 404 naming what exists for an unknown group or component', async () => {
    const { status, body } = await get('/startup');
    assert.equal(status, 404);
    assert.match(
      String(body.message),
      /No health group or component 'startup' \(liveness, readiness, livenessState, readinessState\)/,
    );
    assert.equal(body.path, '/actuator/health/startup');
  });

  it('turns readiness OUT_OF_SERVICE (503) once the client closes, liveness stays UP', async () => {
    const closing = client.close();
    assert.deepEqual(await get('/readiness'), {
      status: 503,
      body: { status: 'OUT_OF_SERVICE', components: { readinessState: { status: 'OUT_OF_SERVICE' } } },
    });
    assert.equal((await get('/liveness')).status, 200);
    await closing;
  });
});
