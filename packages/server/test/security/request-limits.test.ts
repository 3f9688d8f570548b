// Every input limit answers a 4xx with a Spring error body naming the limit, on a real server and socket.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type PreparedServer, startPreparedServer } from './prepared-server.js';

interface ErrorBody {
  status: number;
  error: string;
  message: string;
  path: string;
  code: string;
}

describe('request limits', () => {
  let remote: GitRemote;
  let server: PreparedServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'foo.yml': 'a: 1\n' });
    server = await startPreparedServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.server.max-url-length': '512',
      'confbus.server.max-profiles': '4',
      'confbus.server.max-body-bytes': '1000',
      'confbus.server.max-header-bytes': '4096',
    });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  async function call(path: string, init?: RequestInit): Promise<{ status: number; body: ErrorBody }> {
    const response = await fetch(`${server.base}${path}`, init);
    const text = await response.text();
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/, text);
    return { status: response.status, body: JSON.parse(text) as ErrorBody };
  }

  it('414 for a URL over max-url-length, whether the excess is in a path parameter or the query', async () => {
    for (const path of [
      `/foo/default/${'l'.repeat(600)}`,
      `/foo/default?x=${'q'.repeat(600)}`,
      `/${'a'.repeat(600)}`,
    ]) {
      const { status, body } = await call(path);
      assert.equal(status, 414, path);
      assert.equal(body.code, 'CONFBUS_URL_TOO_LONG');
      assert.match(body.message, /512 characters \(confbus\.server\.max-url-length\)/);
    }
  });

  it('400 for more profiles than max-profiles', async () => {
    assert.equal((await fetch(`${server.base}/foo/a,b,c,d`)).status, 200);
    const { status, body } = await call('/foo/a,b,c,d,e');
    assert.equal(status, 400);
    assert.equal(body.code, 'CONFBUS_TOO_MANY_PROFILES');
    assert.match(body.message, /At most 4 profiles/);
  });

  it('413 for a body over max-body-bytes, declared or streamed', async () => {
    const big = JSON.stringify({ path: 'x'.repeat(2000) });
    const declared = await call('/monitor', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(declared.status, 413);
    assert.equal(declared.body.code, 'CONFBUS_BODY_TOO_LARGE');
    assert.match(declared.body.message, /1000 bytes \(confbus\.server\.max-body-bytes\)/);
    // Chunked: no content-length to check up front, so the limit applies while reading.
    const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.base}/monitor`,
        { method: 'POST', headers: { 'content-type': 'application/json' } },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(big.slice(0, 900));
      req.end(big.slice(900));
    });
    assert.equal(chunked.status, 413);
    assert.equal((JSON.parse(chunked.body) as ErrorBody).code, 'CONFBUS_BODY_TOO_LARGE');
  });

  it('415 for an unsupported content type on a POST', async () => {
    const { status, body } = await call('/monitor', {
      method: 'POST',
      body: '<push/>',
      headers: { 'content-type': 'application/xml' },
    });
    assert.equal(status, 415);
    assert.equal(body.code, 'CONFBUS_UNSUPPORTED_MEDIA_TYPE');
    assert.match(body.message, /'application\/xml' is not accepted by POST \/monitor/);
    const ok = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      body: '{"path":"foo.yml"}',
      headers: { 'content-type': 'application/json' },
    });
    // Accepted: the monitor itself answers (503 here, as this server has no bus), not the content-type check.
    assert.ok(![413, 415].includes(ok.status), String(ok.status));
    assert.notEqual(((await ok.json()) as ErrorBody).code, 'CONFBUS_UNSUPPORTED_MEDIA_TYPE');
  });

  it('431 for request line plus headers over max-header-bytes, answered on the socket', async () => {
    const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${server.base}/foo/default`,
        { headers: { 'x-padding': 'p'.repeat(8000) } },
        (res) => {
          let body = '';
          res
            .setEncoding('utf8')
            .on('data', (chunk: string) => (body += chunk))
            .on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
    assert.equal(response.status, 431);
    const body = JSON.parse(response.body) as ErrorBody;
    assert.equal(body.code, 'CONFBUS_HEADERS_TOO_LARGE');
    assert.match(body.message, /4096 bytes \(confbus\.server\.max-header-bytes\)/);
  });

  it('400 for malformed percent-encoding in the path (fastify refuses to decode it)', async () => {
    for (const path of ['/foo/%zz', '/foo%/default', '/foo/default/%E0%A4%A', '/%c0%af/x']) {
      const { status, body } = await call(path);
      assert.equal(status, 400, path);
      assert.equal(body.code, 'CONFBUS_BAD_URL');
      assert.equal(body.error, 'Bad Request');
    }
  });

  it('400 with a JSON body for bytes that are not HTTP at all, and the server keeps serving', async () => {
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(new URL(server.base).port), '127.0.0.1');
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString('utf8')));
      socket.on('close', () => resolve(data));
      socket.on('error', reject);
      socket.end('GET /foo/de\0fault HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    assert.match(raw, /^HTTP\/1\.1 400 Bad Request\r\n/);
    assert.equal(
      (JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4)) as ErrorBody).code,
      'CONFBUS_MALFORMED_REQUEST',
    );
    assert.equal((await fetch(`${server.base}/foo/default`)).status, 200);
  });
});
