// Who may call the rollouts API with credentials on (install-security.ts): a viewer reads rollouts, only an
// operator starts and moves them; a client with application access only reports, and only on its own
// applications; refusals are audited like every other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeTestServer, startTestServer } from '../server-harness.js';

const basic = (user: string, password: string): string =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ORDERS = basic('orders', 'orders-pw');
const VIEWER = basic('alice', 'viewer-pw');
const OPERATOR = basic('bob', 'operator-pw');

describe('rollouts API access', () => {
  let t: FakeTestServer;
  let A: string;

  before(async () => {
    t = await startTestServer(
      {
        'confbus.server.rollouts.enabled': 'true',
        'confbus.server.rollouts.tick-ms': '60000',
        'spring.security.user.name': 'root',
        'spring.security.user.password': 'admin-pw',
        'confbus.security.clients.orders.password': '{noop}orders-pw',
        'confbus.security.clients.orders.applications': 'orders',
        'confbus.security.clients.alice.password': '{noop}viewer-pw',
        'confbus.security.clients.alice.roles': 'viewer',
        'confbus.security.clients.bob.password': '{noop}operator-pw',
        'confbus.security.clients.bob.roles': 'operator',
      },
      { files: { 'orders.yml': 'greeting: from-a\n', 'billing.yml': 'greeting: billing\n' } },
    );
    A = (
      await t.get('/orders/default', { authorization: ORDERS }).then((r) => r.json() as { version: string })
    ).version;
    t.repository.push({ 'orders.yml': 'greeting: from-b\n' });
  });
  after(() => t.stop());

  const post = async (path: string, body: unknown, headers: Record<string, string>) => {
    const response = await fetch(`${t.base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const report = (application: string, authorization?: string) =>
    post(
      '/-/rollouts/reports',
      { application, version: A, status: 'UP' },
      { 'x-confbus-instance-id': 'orders-0', ...(authorization ? { authorization } : {}) },
    );

  it('lets a viewer read, only an operator start and act; a client only reports on its own applications', async () => {
    assert.equal((await t.get('/-/rollouts', {})).status, 401, 'no credentials');
    assert.equal(
      (await t.get('/-/rollouts', { authorization: ORDERS })).status,
      403,
      'a client is no viewer',
    );
    assert.equal((await t.get('/-/rollouts', { authorization: VIEWER })).status, 200);

    const plan = { application: 'orders', from: A, waves: '1,100%', bakeSeconds: 60 };
    const byViewer = await post('/-/rollouts', plan, { authorization: VIEWER });
    assert.equal(byViewer.status, 403);
    assert.equal(byViewer.body.code, 'CONFBUS_FORBIDDEN');
    assert.equal((await post('/-/rollouts', plan, { authorization: ORDERS })).status, 403);
    const started = await post('/-/rollouts', plan, { authorization: OPERATOR });
    assert.equal(started.status, 201, JSON.stringify(started.body));
    const id = String(started.body.id);
    assert.equal((await post(`/-/rollouts/${id}/pause`, {}, { authorization: ORDERS })).status, 403);
    assert.equal((await post(`/-/rollouts/${id}/explode`, {}, { authorization: VIEWER })).status, 403);

    assert.equal((await report('orders')).status, 401, 'a report needs credentials');
    const own = await report('orders', ORDERS);
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.rollout, id);
    const foreign = await report('billing', ORDERS);
    assert.equal(foreign.status, 403, 'not on an application the client may not read');
    assert.equal(foreign.body.code, 'CONFBUS_APPLICATION_FORBIDDEN');

    const paused = await post(`/-/rollouts/${id}/pause`, { reason: 'checking' }, { authorization: OPERATOR });
    assert.equal(paused.status, 200);
    const audited = t.audit
      .filter((entry) => entry.action.startsWith('rollout.') || entry.action === 'access.denied')
      .map(({ action, principal, outcome, status }) => ({ action, principal, outcome, status }));
    assert.deepEqual(
      audited.filter((entry) => entry.action.startsWith('rollout.') && entry.outcome === 'success'),
      [
        { action: 'rollout.start', principal: 'bob', outcome: 'success', status: 201 },
        { action: 'rollout.pause', principal: 'bob', outcome: 'success', status: 200 },
      ],
    );
    assert.ok(
      audited.some((entry) => entry.action === 'access.denied' && entry.principal === 'orders'),
      'the refused report is audited',
    );
  });
});
