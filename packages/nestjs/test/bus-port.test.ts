// The bus id needs the port the application listens on: with server.port=0 the module gives the client the port
// Nest's HTTP server got, and the bus member joins RabbitMQ (own vhost) with it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { silentLogger } from '@confbus/core';
import { ConfbusModule } from '@confbus/nestjs';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { waitFor } from '@confbus/testkit/wait-for';
import {
  RABBIT_HOST,
  RABBIT_PASSWORD,
  RABBIT_PORT,
  RABBIT_USER,
  createTestVhost,
  type TestVhost,
} from '@confbus/testkit/rabbit-vhost';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';

describe('ConfbusModule and the bus', () => {
  let stub: StubConfigServer;
  let vhost: TestVhost;
  let temp: { path: string; remove: () => Promise<void> };
  let app: INestApplication | undefined;

  before(async () => {
    [stub, vhost, temp] = await Promise.all([startStubConfigServer(), createTestVhost(), makeTempDir()]);
    stub.setEnvironment('busapp', 'default', {
      version: 'v1',
      propertySources: [{ name: 'repo/busapp.yml', source: { greeting: 'hi' } }],
    });
  });
  after(async () => {
    await app?.close();
    await stub.stop();
    await vhost.remove();
    await temp.remove();
  });

  it('starts the bus member with the port the application listens on', async () => {
    const start = {
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=busapp',
        '--server.port=0',
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        `--spring.rabbitmq.username=${RABBIT_USER}`,
        `--spring.rabbitmq.password=${RABBIT_PASSWORD}`,
      ],
      env: {},
      cwd: temp.path,
      logger: silentLogger,
    };
    app = await NestFactory.create(ConfbusModule.forRoot({ start }), new ExpressAdapter(), {
      logger: false,
      abortOnError: false,
    });
    const client = app.get(ConfigClient);
    assert.equal(client.busState.state, 'waiting-for-port');
    await app.listen(0, '127.0.0.1');
    const port = Number(new URL(await app.getUrl()).port);
    const bus = await waitFor('the bus member to start', () => client.bus);
    assert.match(bus.busId ?? '', new RegExp(`^busapp:default:${port}:`));
  });
});
