/**
 * Fault: the broker is unreachable (silent: connections accepted and never answered, or cut mid-connection).
 * POST /monitor answers 503 once confbus.bus.publish-timeout has passed, naming the setting, instead of
 * blocking for the AMQP client's retries; SIGTERM then shuts the server down cleanly (exit 0, not killed).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type ConfbusProcess, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { RABBIT_PORT, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { type TcpProxy, startTcpProxy } from '@confbus/testkit/tcp-proxy';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { postPushWebhook } from '../support/bus-fleet.js';
import { recordFault } from '../support/fault-report.js';

describe('fault: broker unreachable during a webhook and at shutdown', () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let work: { path: string; remove: () => Promise<void> };
  let proxy: TcpProxy;

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    await remote.commit({ 'sample.yml': 'a: 1\n' });
    work = await makeTempDir('confbus-broker-unreachable-');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await proxy?.stop();
    await vhost?.remove();
    await remote?.remove();
    await work?.remove();
  });

  const startServer = async (name: string, publishTimeoutMs = 500): Promise<ConfbusProcess> =>
    startConfbusServer({
      gitUri: remote.url,
      basedir: `${work.path}/${name}`,
      args: [
        '--spring.cloud.bus.enabled=true',
        '--spring.rabbitmq.host=127.0.0.1',
        `--spring.rabbitmq.port=${proxy.port}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        `--confbus.bus.publish-timeout=${publishTimeoutMs}`,
      ],
      timeoutMs: 60_000,
    });

  const webhookThenStop = async (server: ConfbusProcess, fault: string) => {
    const started = performance.now();
    const response = await postPushWebhook(server.url, ['sample.yml']);
    const answeredMs = Math.round(performance.now() - started);
    assert.equal(response.status, 503);
    const body = response.json as { code: string; message: string };
    assert.equal(body.code, 'CONFBUS_BUS_PUBLISH_FAILED');
    assert.match(body.message, /confbus\.bus\.publish-timeout/);
    const stopping = performance.now();
    assert.equal(await server.process.stop(), 0, 'shut down by itself after SIGTERM, not killed');
    const stopMs = Math.round(performance.now() - stopping);
    recordFault({
      fault,
      clients: 0,
      outcome: `POST /monitor 503 after ${answeredMs} ms (publish-timeout 500 ms); SIGTERM to exit ${stopMs} ms`,
    });
  };

  it('answers the webhook with 503 and shuts down when the broker never answered', async () => {
    proxy = await startTcpProxy(RABBIT_PORT);
    proxy.hang(true);
    await webhookThenStop(await startServer('silent'), 'broker silent from the start');
  });

  it('answers the webhook with 503 and shuts down when the connection went silent', async () => {
    proxy.hang(false);
    const server = await startServer('cut');
    // Connected (the bus said so in the log), then the network goes silent.
    await server.process.waitForLine(/bus connected/, 30_000);
    proxy.hang(true);
    proxy.cut();
    await webhookThenStop(server, 'broker connection cut, then silent');
  });

  it('shuts down while a webhook is still waiting on the broker', async () => {
    proxy.hang(true);
    proxy.cut();
    const server = await startServer('in-flight', 600_000);
    const pending = postPushWebhook(server.url, ['sample.yml']).catch((error: unknown) => error);
    await server.process.waitForLine(/Refresh for: sample/, 30_000);
    const stopping = performance.now();
    assert.equal(await server.process.stop(), 0, 'shut down by itself after SIGTERM, not killed');
    const stopMs = Math.round(performance.now() - stopping);
    assert.ok((await pending) instanceof Error, 'the waiting webhook connection is closed');
    recordFault({
      fault: 'SIGTERM with a webhook waiting on a silent broker',
      clients: 0,
      outcome: `connection closed, exit 0 after ${stopMs} ms`,
    });
  });
});
