// A watch stream holds its socket alone once its head is written (stream-socket.ts): on the wire it is the
// same HTTP/1.1 chunked event stream as a ServerResponse writes — the head, `retry:`, heartbeats, changes, and
// the last chunk when the server shuts down — an HTTP/1.0 client's stream is unframed and ends with its
// connection, a client that half-closes frees its slot, and over HTTPS the TLS socket is handed over alike.
// Real sockets, real Git mirror, no bus.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import type { Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { TlsAuthority } from '@confbus/testkit/tls-authority';
import type { GitRemote } from '@confbus/testkit/git-remote';
import { waitFor } from '@confbus/testkit/wait-for';
import type { TestServer } from '../git-server-harness.js';
import { type WatchGitServer, openRaw, startWatchGitServer } from './watch-git-server.js';

/** The body of a chunked message: each chunk's size checked against its bytes; `last`: the 0-size chunk came. */
function unchunk(body: string): { data: string; last: boolean } {
  let data = '';
  let rest = body;
  for (;;) {
    const line = /^([0-9a-f]+)\r\n/.exec(rest);
    if (!line) return { data, last: false };
    const size = parseInt(line[1]!, 16);
    if (size === 0) return { data, last: rest === '0\r\n\r\n' };
    const chunk = rest.slice(line[0].length, line[0].length + size);
    if (
      Buffer.byteLength(chunk) !== size ||
      rest.slice(line[0].length + size, line[0].length + size + 2) !== '\r\n'
    )
      return { data, last: false };
    data += chunk;
    rest = rest.slice(line[0].length + size + 2);
  }
}

const split = (text: string) => {
  const at = text.indexOf('\r\n\r\n');
  return { head: text.slice(0, at), body: text.slice(at + 4) };
};

describe('a watch stream on its handed-over socket', () => {
  let fixture: WatchGitServer | undefined;
  let remote: GitRemote;
  let server: TestServer;
  let port: number;
  let sockets: Socket[];

  before(async () => {
    fixture = await startWatchGitServer({ 'confbus.watch.heartbeat-interval': '1' });
    ({ remote, server, port, sockets } = fixture);
  });
  after(() => fixture?.stop());

  const open = (version: '1.1' | '1.0' = '1.1') => {
    const stream = openRaw(port, version);
    sockets.push(stream.socket);
    return stream;
  };

  it('frees the slot of a client that half-closes its connection', async () => {
    const stream = open();
    await waitFor('the stream handed over', () => server.server.watch?.streams.handedOverStreams === 1);
    stream.socket.end();
    await stream.ended;
    await waitFor('the slot free', () => server.server.watch?.admission.openConnections === 0);
    assert.equal(server.server.watch?.hub.watchers, 0);
  });

  it('writes an HTTP/1.0 stream unframed', async () => {
    const stream = open('1.0');
    await waitFor('the heartbeat', () => stream.text().includes(': heartbeat\n\n'));
    const { head, body } = split(stream.text());
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.doesNotMatch(head, /transfer-encoding/i);
    assert.ok(body.startsWith('retry: 2000\n\n: heartbeat\n\n'), JSON.stringify(body));
    stream.socket.destroy();
    await waitFor('the slot free', () => server.server.watch?.admission.openConnections === 0);
  });

  it('writes the same chunked event stream, a change, and the last chunk at shutdown', async () => {
    const stream = open();
    await waitFor('the stream handed over', () => server.server.watch?.streams.handedOverStreams === 1);
    const version = await remote.commit({ 'foo.yml': 'greeting: changed\n' });
    const hook = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"path":"foo.yml"}',
    });
    assert.equal(hook.status, 200);
    await waitFor('the change and a heartbeat', () => {
      const { data } = unchunk(split(stream.text()).body);
      return data.includes(`id: ${version}\nevent: change\n`) && data.includes(': heartbeat\n\n');
    });
    const { head } = split(stream.text());
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(head, /\r\ncontent-type: text\/event-stream; charset=utf-8\r\n/i);
    assert.match(head, /\r\ncache-control: no-store\r\n/i);
    assert.match(head, /\r\ntransfer-encoding: chunked(\r\n|$)/i);
    const { data } = unchunk(split(stream.text()).body);
    assert.ok(data.startsWith('retry: 2000\n\n'), JSON.stringify(data));
    const change = /event: change\ndata: (.*)\n\n/.exec(data);
    assert.deepEqual(JSON.parse(change![1]!).keys, ['greeting']);
    await server.stop();
    await stream.ended;
    assert.equal(unchunk(split(stream.text()).body).last, true, 'the stream ended with the last chunk');
  });
});

/** POST /monitor over HTTPS, trusting `ca`; resolves with the status. */
function postMonitor(base: string, ca: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${base}/monitor`,
      { method: 'POST', agent: false, ca, headers: { 'content-type': 'application/json' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end('{"path":"foo.yml"}');
  });
}

describe('a watch stream over HTTPS', () => {
  let dir: TempDir;
  let fixture: WatchGitServer | undefined;
  let remote: GitRemote;
  let server: TestServer;
  let ca: Buffer;

  before(async () => {
    dir = await makeTempDir('confbus-watch-tls-');
    const authority = await TlsAuthority.create(dir.path);
    const cert = await authority.issue('127.0.0.1', { file: 'server' });
    ca = readFileSync(authority.caCert);
    fixture = await startWatchGitServer({
      'server.ssl.certificate': cert.cert,
      'server.ssl.certificate-private-key': cert.key,
    });
    ({ remote, server } = fixture);
  });
  after(async () => {
    await fixture?.stop();
    await dir?.remove();
  });

  it('hands the TLS socket over and sends a change on it', async () => {
    let text = '';
    const req = request(`${server.base}/-/watch/foo/default`, {
      agent: false,
      ca,
      headers: { accept: 'text/event-stream' },
    });
    req.on('response', (res) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
    });
    req.on('error', () => undefined);
    req.end();
    try {
      await waitFor('the stream handed over', () => server.server.watch?.streams.handedOverStreams === 1);
      const version = await remote.commit({ 'foo.yml': 'greeting: over tls\n' });
      assert.equal(await postMonitor(server.base, ca), 200);
      await waitFor('the change', () => text.includes(`id: ${version}\nevent: change\n`));
      assert.ok(text.startsWith('retry: 2000\n\n'), JSON.stringify(text));
    } finally {
      req.destroy();
    }
    await waitFor('the slot free', () => server.server.watch?.admission.openConnections === 0);
  });
});
