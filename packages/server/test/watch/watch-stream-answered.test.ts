// An ended watch stream is an answered request like any other: counted and timed in the request metrics and
// written to the access log, once, whoever ended it (the client leaving, the server shutting down) and whether
// the stream held its socket alone (handed over from node:http, stream-socket.ts) or kept its ServerResponse
// (a pipelined request). Real sockets, real Git mirror, no bus.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@confbus/testkit/wait-for';
import type { TestServer } from '../git-server-harness.js';
import { sample } from '../metrics/exposition-sample.js';
import { type WatchGitServer, openRaw, startWatchGitServer } from './watch-git-server.js';

const ROUTE = '/-/watch/:name/:profiles';
const WATCH_URL = '/-/watch/foo/default';
/** Asked right behind a stream on the same connection: node:http has parsed it, so the stream keeps its response. */
const PIPELINED = 'GET /actuator/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

/** The access log's lines for watch streams. */
const streamLines = (server: TestServer) =>
  server.logs.filter((line) => line.component === 'access' && line.url === WATCH_URL);

function startServer(): Promise<WatchGitServer> {
  return startWatchGitServer({ 'confbus.logging.access-log': 'true' });
}

describe('an ended watch stream is an answered request', () => {
  let fixture: WatchGitServer | undefined;

  before(async () => {
    fixture = await startServer();
  });
  after(() => fixture?.stop());

  const openStreams = (server: TestServer) => server.server.watch?.streams.openStreams ?? -1;

  it('counts, times and logs once a handed-over stream its client ended', async () => {
    const { server, port, sockets } = fixture!;
    const stream = openRaw(port, '1.1');
    sockets.push(stream.socket);
    await waitFor('the stream handed over', () => server.server.watch?.streams.handedOverStreams === 1);
    stream.socket.end();
    await waitFor('the stream closed', () => openStreams(server) === 0);
    await waitFor('the stream in the access log', () => streamLines(server).length > 0);
    const [line] = streamLines(server);
    assert.equal(line?.status, 200);
    assert.equal(line?.method, 'GET');
    assert.equal(typeof line?.ms, 'number');
    const metrics = await server.get('/actuator/prometheus');
    const labels = `method="GET",route="${ROUTE}"`;
    assert.equal(sample(metrics.body, 'confbus_http_requests_total', `${labels},status="200"`), 1);
    assert.equal(sample(metrics.body, 'confbus_http_request_duration_seconds_count', labels), 1);
    assert.equal(streamLines(server).length, 1, 'reported once');
  });

  it('logs once a stream that kept its response, its client gone', async () => {
    const { server, port, sockets } = fixture!;
    const before = streamLines(server).length;
    const stream = openRaw(port, '1.1', PIPELINED);
    sockets.push(stream.socket);
    await waitFor('the stream open', () => openStreams(server) === 1);
    assert.equal(server.server.watch?.streams.handedOverStreams, 0, 'the stream kept its response');
    stream.socket.destroy();
    await waitFor('the stream closed', () => openStreams(server) === 0);
    await waitFor('the stream in the access log', () => streamLines(server).length > before);
    const metrics = await server.get('/actuator/prometheus');
    const labels = `method="GET",route="${ROUTE}"`;
    assert.equal(sample(metrics.body, 'confbus_http_request_duration_seconds_count', labels), 2);
    assert.equal(streamLines(server).length, before + 1, 'reported once');
  });
});

describe('watch streams the server ends at shutdown', () => {
  let fixture: WatchGitServer | undefined;
  after(() => fixture?.stop());

  it('logs each once, handed over or not', async () => {
    fixture = await startServer();
    const { server, port, sockets } = fixture;
    const handedOver = openRaw(port, '1.1');
    sockets.push(handedOver.socket);
    await waitFor('one stream handed over', () => server.server.watch?.streams.handedOverStreams === 1);
    const kept = openRaw(port, '1.1', PIPELINED);
    sockets.push(kept.socket);
    await waitFor('two streams open', () => server.server.watch?.streams.openStreams === 2);
    await server.stop();
    await handedOver.ended;
    // Each connection closed on the server's side too, where a stream that closes reports its end.
    for (const socket of sockets) socket.destroy();
    await waitFor('both slots free', () => server.server.watch?.admission.openConnections === 0);
    const lines = streamLines(server);
    assert.equal(lines.length, 2, JSON.stringify(lines));
    assert.deepEqual(
      lines.map((line) => line.status),
      [200, 200],
    );
  });
});
