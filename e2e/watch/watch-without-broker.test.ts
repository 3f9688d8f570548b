/**
 * Live configuration with no broker at all (the bus is off on every side and points at a closed port): real
 * server and sample-client processes on the watch stream. A webhook reaches every watching client, through a
 * proxy that cuts the connections, past a client that opened a stream and stopped reading, and across a
 * server restart during which a change was committed (the client catches up on reconnecting); each change's
 * acks show in the server's refresh events.
 */
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TcpProxy, startTcpProxy } from '@confbus/testkit/tcp-proxy';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';

const NO_BROKER = { 'spring.cloud.bus.enabled': false, 'spring.rabbitmq.port': 1 };
const file = (comment: string) => `group:\n  profile: dev\n  comment: ${comment}\n`;

interface TrackedRefresh {
  id: string;
  commit: string;
  acks: Array<{ service: string; configVersion?: string }>;
}

describe('watch stream: live refresh with no broker', () => {
  let remote: GitRemote;
  let server: RunningServer;
  let proxy: TcpProxy;
  let direct: RunningClient;
  let proxied: RunningClient;
  let idle: Socket | undefined;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': file('first') });
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': 3600,
      'confbus.watch.upstream-check-interval': 0,
      ...NO_BROKER,
    });
    proxy = await startTcpProxy(server.port);
    const client = (uri: string) =>
      startClient({
        'spring.profiles.active': 'dev',
        'spring.cloud.config.uri': uri,
        'confbus.client.watch.reconnect-initial': 200,
        // However long the restart takes, a reconnect is at most 2 s away (the default ceiling is 30 s).
        'confbus.client.watch.reconnect-max': 2000,
        ...NO_BROKER,
      });
    direct = await client(server.base);
    proxied = await client(`http://127.0.0.1:${proxy.port}`);
    await Promise.all(
      [direct, proxied].map((c) => c.process.waitForLine(/Watching .* for configuration changes/, 30_000)),
    );
  });
  after(async () => {
    idle?.destroy();
    await stopFleet();
    await proxy?.stop();
    await remote?.remove();
  });

  const comment = async (client: RunningClient) =>
    ((await client.get('/dynamic')).json as { comment?: string }).comment;
  const bothServe = (expected: string) =>
    waitUntil(`both clients to serve '${expected}'`, async () =>
      (await Promise.all([comment(direct), comment(proxied)])).every((c) => c === expected),
    );
  const push = async (comment: string) => {
    const commit = await remote.commit({ 'sample-dev.yml': file(comment) });
    const response = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'sample-dev.yml' }),
    });
    assert.equal(response.status, 200, await response.text());
    return commit;
  };

  it('a webhook reaches every watching client, and their acks show in the refresh events', async () => {
    // A client that opens a stream and never reads it must not hold up the others.
    idle = connect(server.port, '127.0.0.1');
    idle.on('error', () => undefined);
    idle.write(`GET /-/watch/sample/dev HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
    idle.pause();
    const commit = await push('second');
    await bothServe('second');
    // The change carried the environment, which the clients asked for (applied without a GET: client tests).
    await server.process.waitForLine(
      new RegExp(`^(?=.*"version":"${commit}")(?=.*"environmentBytes":[1-9])`),
      10_000,
    );
    await waitUntil('both acks', async () => {
      const events = (await (
        await fetch(`${server.base}/actuator/refresh-events`)
      ).json()) as TrackedRefresh[];
      const event = events.find((e) => e.commit === commit);
      return event !== undefined && event.acks.filter((a) => a.configVersion === commit).length === 2;
    });
  });

  it('keeps watching through a proxy that cuts its connections', async () => {
    proxy.cut();
    await proxied.process.waitForLine(/Watch stream broke/, 30_000);
    await push('third');
    await bothServe('third');
  });

  it('catches up after a server restart on a change committed while it was down', async () => {
    await server.stop();
    await remote.commit({ 'sample-dev.yml': file('fourth') });
    await server.restart();
    await bothServe('fourth');
    await push('fifth');
    await bothServe('fifth');
  });
});
