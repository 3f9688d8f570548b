// Console event streams against clients that open streams and stop reading, over real sockets: one client holds
// at most confbus.console.max-event-streams-per-client streams (429 beyond) so other operators still get one; a
// stream whose client does not read is dropped once what waits for it passes the bound, freeing its slot, while
// a client that reads keeps its stream; a stream is counted in the request metrics when it ends.
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createRefreshEvent } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';
import { sample } from '../metrics/exposition-sample.js';

interface RawStream {
  status: number;
  /** The last 64 KiB received after the head (it only moves while the stream is read). */
  tail(): string;
  socket: Socket;
}

/**
 * Opens GET /-/console/api/events from `localAddress` on a raw socket and reads the answer's head; with
 * `read: false` the socket then stops reading, as a client that holds a stream and never takes what is sent.
 */
function openStream(port: number, localAddress: string, read: boolean): Promise<RawStream> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    let head = '';
    let tail = '';
    socket.setEncoding('utf8');
    socket.once('error', reject);
    const onHead = (chunk: string) => {
      head += chunk;
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onHead).off('error', reject);
      socket.on('error', () => undefined);
      socket.on('data', (more: string) => (tail = (tail + more).slice(-65_536)));
      tail = head.slice(end + 4);
      if (!read) socket.pause();
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), tail: () => tail, socket });
    };
    socket.on('data', onHead);
    socket.write(`GET /-/console/api/events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });
}

describe('console event streams: clients that do not read', () => {
  let remote: GitRemote;
  let server: TestServer;
  let port: number;
  const sockets: Socket[] = [];

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'application.yml': 'greeting: hello\n' });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.console.max-event-streams': '4',
      'confbus.console.max-event-streams-per-client': '2',
    });
    port = Number(new URL(server.base).port);
  });
  after(async () => {
    for (const socket of sockets) socket.destroy();
    await server?.stop();
    await remote?.remove();
  });

  const open = async (address: string, read: boolean) => {
    const stream = await openStream(port, address, read);
    sockets.push(stream.socket);
    return stream;
  };

  it('one client holds at most its share of the streams: the next is 429, another operator still gets one', async () => {
    const held = [await open('127.0.0.1', false), await open('127.0.0.1', false)];
    assert.deepEqual(
      held.map((s) => s.status),
      [200, 200],
    );
    const third = await open('127.0.0.1', false);
    assert.equal(third.status, 429, third.tail());
    third.socket.resume();
    await waitFor('the 429 body', () => third.tail().includes('CONFBUS_CONSOLE_CLIENT_STREAMS'));
    assert.match(third.tail(), /confbus\.console\.max-event-streams-per-client/);
    const other = await open('127.0.0.2', true);
    assert.equal(other.status, 200, 'another operator is not locked out');
  });

  it('drops the streams of a client that does not read once too much waits for it; a reader keeps its stream', async () => {
    const reader = await open('127.0.0.3', true);
    assert.equal(reader.status, 200);
    const drops = () => server.logs.filter((l) => String(l.msg).startsWith('Dropped a console event stream'));
    // Sent in batches the reader takes before the next (so only the clients that do not read fall behind).
    const destination = `app-${'x'.repeat(16_000)}:**`;
    let batches = 0;
    while (drops().length < 2) {
      assert.ok(batches++ < 4_000, 'the streams that are not read were never dropped');
      const event = createRefreshEvent('configserver:0:test', destination);
      for (let i = 0; i < 8; i++)
        server.server.console?.refreshPublished({ ...event, id: `${event.id}-${i}` });
      await waitFor('the reader to take the batch', () => reader.tail().includes(`${event.id}-7`), {
        intervalMs: 1,
      });
    }
    assert.deepEqual(
      drops().map((l) => l.client),
      ['127.0.0.1', '127.0.0.1'],
    );
    assert.equal(reader.socket.destroyed, false, 'the reader keeps its stream');
    // Their slots are free again: the client that was at its bound gets a stream.
    assert.equal((await open('127.0.0.1', true)).status, 200);
  });

  it('counts a stream in the request metrics once it has ended: dropped, or left by its client', async () => {
    const ended = async () =>
      sample(
        (await server.get('/actuator/prometheus')).body,
        'confbus_http_requests_total',
        'method="GET",route="/-/console/api/events",status="200"',
      );
    assert.equal(await ended(), 2, 'the two streams dropped');
    const leaving = await open('127.0.0.4', true);
    assert.equal(leaving.status, 200);
    leaving.socket.destroy();
    await waitFor('the stream left counted', async () => (await ended()) >= 3);
    assert.equal(await ended(), 3);
  });
});
