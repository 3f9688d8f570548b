// The watch stream's bounds against hostile clients, over real sockets: connections in all (503 with a
// randomised Retry-After), per client (429, another client still gets one), opens per second (503: a
// reconnect storm is spread), and a stream whose client stops reading is dropped once more than
// max-buffered-bytes waits for it — its slot freed, the other watchers told of the change all the same.
import assert from 'node:assert/strict';
import { type Socket, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { openEventStream } from '@confbus/testkit/event-stream';
import type { GitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import type { TestServer } from '../git-server-harness.js';
import { type WatchGitServer, startWatchGitServer } from './watch-git-server.js';

/** Opens a watch stream on a raw socket from `localAddress`; resolves with the status once the head arrived. */
function openRaw(
  port: number,
  localAddress: string,
  read: boolean,
): Promise<{ status: number; socket: Socket; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let head = '';
    socket.setEncoding('utf8');
    socket.once('error', reject);
    const onData = (chunk: string) => {
      head += chunk;
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      socket.on('error', () => undefined);
      if (read) socket.resume();
      else socket.pause();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), socket, head });
    };
    socket.on('data', onData);
    socket.write(`GET /-/watch/foo/default HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n`);
  });
}

describe('watch stream bounds', () => {
  let fixture: WatchGitServer | undefined;
  let remote: GitRemote;
  let server: TestServer;
  let port: number;
  let sockets: Socket[];

  before(async () => {
    fixture = await startWatchGitServer({
      'confbus.watch.max-connections': '4',
      'confbus.watch.max-connections-per-client': '2',
      'confbus.watch.max-buffered-bytes': '1024',
    });
    ({ remote, server, port, sockets } = fixture);
  });
  after(() => fixture?.stop());

  const open = async (address: string, read = true) => {
    const stream = await openRaw(port, address, read);
    sockets.push(stream.socket);
    return stream;
  };
  const closeAll = async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await waitFor('the slots to be free', () => server.server.watch?.admission.openConnections === 0);
  };

  it('one client holds at most its share (429); the whole server at most max-connections (503, Retry-After)', async () => {
    assert.deepEqual([(await open('127.0.0.1')).status, (await open('127.0.0.1')).status], [200, 200]);
    const third = await open('127.0.0.1');
    assert.equal(third.status, 429);
    assert.match(third.head, /CONFBUS_WATCH_CLIENT_CONNECTIONS/);
    assert.deepEqual([(await open('127.0.0.2')).status, (await open('127.0.0.2')).status], [200, 200]);
    const full = await open('127.0.0.3');
    assert.equal(full.status, 503);
    assert.match(full.head, /CONFBUS_WATCH_CONNECTIONS_EXHAUSTED/);
    const retryAfter = Number(/retry-after: (\d+)/i.exec(full.head)?.[1]);
    assert.ok(retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter} within 1..10`);
    await closeAll();
  });

  it('drops a stream whose client stops reading, and still tells the others', async () => {
    const stalled = await open('127.0.0.1', false);
    assert.equal(stalled.status, 200);
    const reader = await openEventStream(`${server.base}/-/watch/foo/default`, {
      accept: 'text/event-stream',
    });
    try {
      await waitFor('two watchers', () => server.server.watch?.hub.watchers === 2);
      // Changes with many keys fill the stalled socket's kernel buffers; then bytes wait in Node for it.
      const keys = (n: number) =>
        Array.from({ length: 2000 }, (_, i) => `key${i}-${'x'.repeat(40)}: ${n}`).join('\n');
      for (let n = 1; server.server.watch!.hub.watchers === 2; n++) {
        await remote.commit({ 'foo.yml': keys(n) });
        await fetch(`${server.base}/monitor`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"path":"foo.yml"}',
        });
        await waitFor('the change', () => reader.events.filter((e) => e.event === 'change').length >= n);
        assert.ok(n < 500, 'the stalled stream was never dropped');
      }
      assert.ok(
        server.logs.some((line) =>
          /Dropped a watch stream whose client does not read it/.test(String(line.msg)),
        ),
      );
      assert.equal(server.server.watch?.admission.openConnections, 1, 'its slot is free again');
    } finally {
      reader.close();
    }
  });
});
