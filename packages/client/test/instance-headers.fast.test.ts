import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { ConfigClient } from '@confbus/client';
import { instanceIdentityOf, parseInstanceTags } from '@confbus/core';
import { startStubConfigServer, type StubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { CaptureLogger } from './support/capture-logger.js';

describe('instance identity on every fetch (X-Confbus-Instance-Id, X-Confbus-Instance-Tags)', () => {
  let stub: StubConfigServer;
  let temp: { path: string; remove: () => Promise<void> };

  before(async () => {
    stub = await startStubConfigServer();
    temp = await makeTempDir();
    stub.setEnvironment('orders', 'default', { version: 'a'.repeat(40), state: '', propertySources: [] });
  });
  after(async () => {
    await stub.stop();
    await temp.remove();
  });

  const fetchHeaders = async (args: string[]) => {
    const before = stub.requests.length;
    const client = await ConfigClient.start({
      args: [
        `--spring.cloud.config.uri=${stub.url}`,
        '--spring.application.name=orders',
        '--confbus.client.watch.enabled=false',
        ...args,
      ],
      env: {},
      cwd: temp.path,
      logger: new CaptureLogger(),
    });
    await client.refresh();
    await client.close();
    const requests = stub.requests.slice(before);
    assert.equal(requests.length, 2, 'the start and the refresh each fetched once');
    return requests.map((request) => request.headers);
  };

  it('sends the configured id and tags with the start-up fetch and every refresh', async () => {
    for (const headers of await fetchHeaders([
      '--confbus.client.instance-id=orders-7',
      '--confbus.client.tags.zone=eu-1',
      '--confbus.client.tags.version=3.2',
    ])) {
      assert.deepEqual(instanceIdentityOf(headers), {
        id: 'orders-7',
        tags: { zone: 'eu-1', version: '3.2' },
      });
    }
  });

  it('defaults the id to host name and server.port, stable across restarts, and sends no tags header', async () => {
    const first = await fetchHeaders(['--server.port=9123']);
    const second = await fetchHeaders(['--server.port=9123']);
    assert.equal(first[0]?.['x-confbus-instance-id'], `${hostname()}:9123`);
    assert.equal(second[1]?.['x-confbus-instance-id'], `${hostname()}:9123`);
    assert.equal(first[0]?.['x-confbus-instance-tags'], undefined);
  });

  it('reads tags leniently: a pair without "=" or with a bad escape is skipped, values are unescaped', () => {
    assert.deepEqual(parseInstanceTags('zone=eu%2C1,broken,%E0=x,version=2'), { zone: 'eu,1', version: '2' });
    assert.equal(instanceIdentityOf({ 'x-confbus-instance-id': '  ' }), undefined);
    assert.equal(instanceIdentityOf({ 'x-confbus-instance-id': 'x'.repeat(513) }), undefined);
  });
});
