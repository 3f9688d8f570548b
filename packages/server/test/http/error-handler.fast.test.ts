// The error handler answers by the error's status with Spring's body; faults and internal errors say nothing more.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ConfbusError } from '@confbus/core';
import Fastify, { type FastifyInstance } from 'fastify';
import { serverErrors } from '../../src/errors.js';
import { GitCommandError, LabelNotFoundError } from '../../src/git/index.js';
import { installErrorHandling } from '../../src/http/error-handler.js';
import { WebhookError } from '../../src/monitor/index.js';

describe('the HTTP error handler', () => {
  let app: FastifyInstance;
  const logged: unknown[] = [];

  before(async () => {
    app = Fastify({
      bodyLimit: 16,
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    });
    installErrorHandling(app, 1000);
    app.get('/label', () => {
      throw new LabelNotFoundError('v9');
    });
    app.get('/webhook', () => {
      throw new WebhookError('no commits');
    });
    app.get('/declared', () => {
      throw new ConfbusError(serverErrors.CONFBUS_UPSTREAM_UNAVAILABLE, 'fetch failed');
    });
    app.get('/git', () => {
      throw new GitCommandError('git fetch failed: /srv/secret-path', 128, false);
    });
    app.get('/fault', () => {
      throw new TypeError('undefined is not a function');
    });
    app.post('/body', () => 'ok');
    await app.ready();
  });
  after(() => app.close());

  async function answer(url: string, method: 'GET' | 'POST' = 'GET', payload?: string) {
    const response = await app.inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload, headers: { 'content-type': 'application/json' } }),
    });
    return { status: response.statusCode, body: response.json<Record<string, unknown>>() };
  }

  it('answers a ConfbusError with its own status, code and message', async () => {
    for (const [url, status, code, message] of [
      ['/label?x=1', 404, 'CONFBUS_NO_SUCH_LABEL', /^No such label: v9/],
      ['/webhook', 400, 'CONFBUS_BAD_WEBHOOK', /^no commits$/],
      ['/declared', 503, 'CONFBUS_UPSTREAM_UNAVAILABLE', /^fetch failed$/],
    ] as const) {
      const { status: got, body } = await answer(url);
      assert.equal(got, status, url);
      assert.equal(body.status, status);
      assert.equal(body.code, code);
      assert.match(String(body.message), message);
      assert.equal(body.path, url.split('?')[0]);
    }
  });

  it("hides an internal error's and a fault's message behind CONFBUS_INTERNAL, and logs them", async () => {
    for (const url of ['/git', '/fault']) {
      const { status, body } = await answer(url);
      assert.equal(status, 500);
      assert.equal(body.code, 'CONFBUS_INTERNAL');
      assert.equal(body.error, 'Internal Server Error');
      assert.doesNotMatch(JSON.stringify(body), /secret-path|not a function/);
    }
    assert.match(logged.join(''), /secret-path/);
  });

  it("gives the framework's own errors a confbus code", async () => {
    const { status, body } = await answer('/body', 'POST', JSON.stringify({ much: 'too long a body' }));
    assert.equal(status, 413);
    assert.equal(body.code, 'CONFBUS_BODY_TOO_LARGE');
    const missing = await answer('/nowhere');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'CONFBUS_NOT_FOUND');
  });
});
