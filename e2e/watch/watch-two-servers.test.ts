/**
 * Two config servers without a bus behind a round-robin TCP proxy: a webhook reaches one server only, and the
 * other learns of the push by its periodic upstream check (confbus.watch.upstream-check-interval, here 1 s):
 * every watcher, whichever server it holds its stream on, ends up serving the new configuration.
 */
import assert from 'node:assert/strict';
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

describe('watch stream: two servers behind a TCP proxy, no bus', () => {
  let remote: GitRemote;
  let servers: RunningServer[];
  let proxy: TcpProxy;
  let clients: RunningClient[];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'sample-dev.yml': file('first') });
    const settings = {
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.refresh-rate': 3600,
      'confbus.watch.upstream-check-interval': 1,
      ...NO_BROKER,
    };
    servers = [await startServer(settings), await startServer(settings)];
    proxy = await startTcpProxy(servers.map((s) => s.port));
    clients = [];
    for (let i = 0; i < 4; i++) {
      clients.push(
        await startClient({
          'spring.profiles.active': 'dev',
          'spring.cloud.config.uri': `http://127.0.0.1:${proxy.port}`,
          ...NO_BROKER,
        }),
      );
    }
    await Promise.all(clients.map((c) => c.process.waitForLine(/Watching .* for configuration changes/)));
  });
  after(async () => {
    await stopFleet();
    await proxy?.stop();
    await remote?.remove();
  });

  it('keeps every watcher current when the webhook reached one server only', async () => {
    await remote.commit({ 'sample-dev.yml': file('second') });
    const response = await fetch(`${servers[0]!.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'sample-dev.yml' }),
    });
    assert.equal(response.status, 200);
    await waitUntil('every client to serve the push', async () => {
      const served = await Promise.all(
        clients.map(async (c) => ((await c.get('/dynamic')).json as { comment?: string }).comment),
      );
      return served.every((comment) => comment === 'second');
    });
  });
});
