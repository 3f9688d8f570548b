// AnsweredRequests: a request fastify answers is reported once by onResponse; a response taken over from
// fastify is reported by its route's `end` alone, once, even when its ServerResponse does finish (fastify's
// onResponse then runs too). Fastify on loopback.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { waitFor } from '@confbus/testkit/wait-for';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  type AnsweredRequest,
  AnsweredRequests,
  type TakenOverResponse,
} from '../../src/support/answered-requests.js';

describe('AnsweredRequests', () => {
  let app: FastifyInstance;
  let base: string;
  const reports: AnsweredRequest[] = [];

  before(async () => {
    app = Fastify();
    const answered = new AnsweredRequests(app, () => 'alice');
    answered.add((report) => reports.push({ ...report }));
    app.get('/things/:id', async () => ({ ok: true }));
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => app.close());

  it('reports a request fastify answered once, by its route pattern', async () => {
    assert.equal((await fetch(`${base}/things/7?x=1`)).status, 200);
    await waitFor('the report', () => reports.length > 0);
    // Closing waits for the connection, after which no hook runs for it.
    await app.close();
    assert.equal(reports.length, 1);
    const [report] = reports;
    assert.equal(report?.route, '/things/:id');
    assert.equal(report?.url, '/things/7?x=1');
    assert.equal(report?.status, 200);
    assert.equal(report?.principal, 'alice');
    assert.equal((report?.params as { id?: string } | undefined)?.id, '7');
  });
});

describe('AnsweredRequests: a response taken over', () => {
  let app: FastifyInstance;
  let base: string;
  const reports: AnsweredRequest[] = [];
  /** URLs whose response finished, seen by an onResponse hook that runs after AnsweredRequests' own. */
  const finished: string[] = [];
  let taken: TakenOverResponse | undefined;

  before(async () => {
    app = Fastify();
    const answered = new AnsweredRequests(app, () => 'anonymous');
    answered.add((report) => reports.push({ ...report }));
    app.addHook('onResponse', (request, _reply, done) => {
      finished.push(request.url);
      done();
    });
    app.get('/streams/:id', (request, reply) => {
      taken = answered.takeOver(request, reply);
      // Written and finished through the response: fastify's onResponse runs for it.
      reply.raw.writeHead(200, { 'content-type': 'text/plain' });
      reply.raw.end('streamed');
    });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => app.close());

  it('is reported by its end alone, once', async () => {
    const response = await fetch(`${base}/streams/s2`);
    assert.equal(await response.text(), 'streamed');
    await waitFor('the response finished', () => finished.includes('/streams/s2'));
    assert.equal(reports.length, 0, 'onResponse reports no request taken over');
    taken?.end(200);
    taken?.end(500);
    assert.equal(reports.length, 1);
    const [report] = reports;
    assert.equal(report?.route, '/streams/:id');
    assert.equal(report?.url, '/streams/s2');
    assert.equal(report?.status, 200);
    assert.ok((report?.ms ?? -1) >= 0);
  });
});
