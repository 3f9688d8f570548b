/**
 * The contract gate on the whole server wired on fakes: a push that breaks an application's contract is not
 * served to it (its clients get the last commit that passed, with X-Confbus-Held-Head naming the head), no refresh
 * is published for it, /monitor answers 422 with the violations, the other applications of the push are
 * announced and served, and a fixing push releases the hold.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createPresenceAnnouncement } from '@confbus/core';
import { concerns } from '../../src/gate/commit-changes.js';
import { type FakeTestServer, startTestServer } from '../server-harness.js';

const SHOP_CONTRACT = JSON.stringify({
  type: 'object',
  properties: {
    shop: {
      type: 'object',
      properties: {
        url: { type: 'string', format: 'uri' },
        'pool-size': { type: 'integer', minimum: 1 },
      },
      required: ['url'],
    },
  },
  required: ['shop'],
});

const GOOD = {
  'application.yml': 'server:\n  port: 8080\n',
  'shop.yml': 'shop:\n  url: https://shop.example\n  pool-size: 4\n',
  'shop-prod.yml': 'shop:\n  pool-size: 8\n',
  'billing.yml': 'billing:\n  currency: EUR\n',
  '.confbus/contracts/shop.schema.json': SHOP_CONTRACT,
};

const versionOf = (response: { json(): unknown }) => (response.json() as { version: string }).version;

async function webhook(server: FakeTestServer, paths: string[]) {
  const response = await fetch(`${server.base}/monitor`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
    body: JSON.stringify({ commits: [{ modified: paths }] }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('the contract gate', () => {
  let server: FakeTestServer;
  let valid: string;

  before(async () => {
    server = await startTestServer(
      { 'spring.cloud.bus.enabled': 'true', 'logging.level.root': 'warn' },
      { files: GOOD },
    );
    valid = (await server.repository.resolveFetched(null)).commit;
  });
  after(() => server.stop());

  it('serves the head when every contract holds', async () => {
    const shop = await server.get('/shop/prod');
    assert.equal(shop.status, 200);
    assert.equal(versionOf(shop), valid);
    assert.equal(shop.headers.get('x-confbus-held-head'), null);
  });

  it('holds back an application whose contract a push breaks, and delivers the others', async () => {
    const broken = server.repository.push({
      ...GOOD,
      'shop-prod.yml': 'shop:\n  pool-size: 0\n',
      'billing.yml': 'billing:\n  currency: USD\n',
    });
    const published = server.bus!.published.length;
    const answer = await webhook(server, ['shop-prod.yml', 'billing.yml']);
    assert.equal(answer.status, 422);
    assert.equal(answer.body.code, 'CONFBUS_CONTRACT_HELD', JSON.stringify(answer.body));
    assert.deepEqual(answer.body.refreshed, ['billing']);
    const held = answer.body.held as Array<Record<string, unknown>>;
    assert.equal(held.length, 1);
    assert.equal(held[0]!.application, 'shop');
    assert.equal(held[0]!.heldHead, broken);
    assert.equal(held[0]!.servedCommit, valid);
    assert.deepEqual(held[0]!.violations, [
      {
        application: 'shop',
        profiles: ['prod'],
        key: 'shop.pool-size',
        rule: 'minimum',
        message: 'must be >= 1',
        contract: '.confbus/contracts/shop.schema.json',
        file: 'shop-prod.yml',
        line: 2,
      },
    ]);
    const destinations = server.bus!.published.slice(published).map((e) => e.destinationService);
    assert.deepEqual(destinations, ['billing:**']);

    const shop = await server.get('/shop/prod');
    assert.equal(versionOf(shop), valid, 'the last commit that passed');
    assert.equal(shop.headers.get('x-confbus-held-head'), broken);
    const again = await server.get('/shop/prod');
    assert.equal(versionOf(again), valid, 'the repeat-request fast path decides the same');
    assert.equal(again.headers.get('x-confbus-held-head'), broken);
    const billing = await server.get('/billing/default');
    assert.equal(versionOf(billing), broken);

    const gate = (await server.get('/actuator/contract-gate')).json() as {
      holds: Array<{ application: string }>;
    };
    assert.deepEqual(
      gate.holds.map((h) => h.application),
      ['shop'],
    );
    const health = (await server.get('/actuator/health')).json() as {
      components: { contracts: { details: { held: Array<{ application: string }> } } };
    };
    assert.equal(health.components.contracts.details.held[0]?.application, 'shop');
    const metrics = (await server.get('/actuator/prometheus')).body;
    assert.match(metrics, /confbus_contract_held_applications 1/);
  });

  it('releases the hold when a later push fixes it', async () => {
    const fixed = server.repository.push({ ...GOOD, 'shop-prod.yml': 'shop:\n  pool-size: 2\n' });
    const answer = await webhook(server, ['shop-prod.yml']);
    assert.equal(answer.status, 200);
    const shop = await server.get('/shop/prod');
    assert.equal(versionOf(shop), fixed);
    assert.equal(shop.headers.get('x-confbus-held-head'), null);
    assert.deepEqual(
      ((await server.get('/actuator/contract-gate')).json() as { holds: unknown[] }).holds,
      [],
    );
  });
});

describe('the contract gate, with published contracts', () => {
  let server: FakeTestServer;

  before(async () => {
    server = await startTestServer(
      { 'spring.cloud.bus.enabled': 'true', 'logging.level.root': 'warn' },
      { files: GOOD },
    );
  });
  after(() => server.stop());

  const currency = { type: 'string', enum: ['EUR', 'USD'] };
  const billingContract = {
    type: 'object',
    properties: { billing: { type: 'object', properties: { currency } } },
  };

  it('enforces a contract a client announced with its presence on the bus, until it leaves', async () => {
    const announce = (leaving: boolean) =>
      server.server.gate!.busEvent(
        createPresenceAnnouncement('billing:8080:a1', {
          application: 'billing',
          profiles: [],
          label: null,
          configVersion: null,
          startedAt: 0,
          leaving,
          contract: billingContract,
        }),
      );
    announce(false);
    const valid = (await server.repository.resolveFetched(null)).commit;
    const broken = server.repository.push({ ...GOOD, 'billing.yml': 'billing:\n  currency: GBP\n' });
    const answer = await webhook(server, ['billing.yml']);
    assert.equal(answer.status, 422);
    const held = answer.body.held as Array<{ application: string; violations: Array<{ contract: string }> }>;
    assert.deepEqual(
      held.map((h) => [h.application, h.violations[0]?.contract]),
      [['billing', 'published by billing:8080:a1']],
    );
    const billing = await server.get('/billing/default');
    assert.equal(versionOf(billing), valid);
    assert.equal(billing.headers.get('x-confbus-held-head'), broken);
    announce(true);
    assert.equal(versionOf(await server.get('/billing/default')), broken, 'no contract left to break');
  });

  it('enforces a contract posted to /contracts/published, and refuses a malformed one', async () => {
    const post = (body: unknown) =>
      fetch(`${server.base}/contracts/published`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const refused = await post({ application: 'billing', instance: 'b', schema: 'no' });
    assert.equal(refused.status, 400);
    assert.equal(((await refused.json()) as { code: string }).code, 'CONFBUS_GATE_BAD_REQUEST');
    const accepted = await post({
      application: 'billing',
      instance: 'billing:8080:b2',
      schema: billingContract,
    });
    assert.equal(accepted.status, 202);
    const head = (await server.repository.resolveFetched(null)).commit;
    const billing = await server.get('/billing/default');
    assert.notEqual(versionOf(billing), head, 'held back again');
    assert.equal(billing.headers.get('x-confbus-held-head'), head);
    // What `confbus check --server` enforces: every distinct published contract, named after its instance.
    const listed = await server.get('/actuator/contract-gate/published');
    assert.equal(listed.status, 200);
    const { contracts } = listed.json() as {
      contracts: Array<{ application: string; name: string; schema: unknown }>;
    };
    assert.deepEqual(
      contracts.filter((c) => c.application === 'billing').map((c) => [c.name, c.schema]),
      [['published by billing:8080:b2', billingContract]],
    );
  });

  it('lets an operator release a hold (audited), for that commit only', async () => {
    const head = (await server.repository.resolveFetched(null)).commit;
    await server.server.gate!.gate.judge({ label: 'master', commit: head, stale: false });
    const release = await fetch(`${server.base}/actuator/contract-gate/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application: 'billing', commit: head, reason: 'GBP launch approved' }),
    });
    assert.equal(release.status, 200, await release.clone().text());
    const billing = await server.get('/billing/default');
    assert.equal(versionOf(billing), head);
    assert.equal(billing.headers.get('x-confbus-held-head'), null);
    const audited = server.audit.find((record) => record.action === 'hold.release');
    assert.equal(audited?.target, `billing@${head}`, 'the release is in the audit log');
    assert.equal(audited?.detail, 'GBP launch approved');
    const unknown = await fetch(`${server.base}/actuator/contract-gate/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application: 'shop', commit: head, reason: 'x' }),
    });
    assert.equal(unknown.status, 404);
  });
});

describe('which changed paths concern an application (a verdict is inherited otherwise)', () => {
  const known = new Set(['shop', 'billing', 'shop-eu']);
  it('its own files and contract, application* files, and files of no known application', () => {
    assert.equal(concerns('shop-prod.yml', 'shop', known), true);
    assert.equal(concerns('application-dev.properties', 'shop', known), true);
    assert.equal(concerns('.confbus/contracts/shop.schema.json', 'shop', known), true);
    assert.equal(concerns('.confbus/contracts/application.schema.json', 'shop', known), true);
    assert.equal(concerns('shared/db.yml', 'shop', known), true, 'may be imported');
  });
  it('not the files or contracts of another application, nor files that are no configuration', () => {
    assert.equal(concerns('billing-prod.yml', 'shop', known), false);
    assert.equal(concerns('.confbus/contracts/billing.schema.json', 'shop', known), false);
    assert.equal(concerns('README.md', 'shop', known), false);
    assert.equal(concerns('.github/workflows/ci.yml', 'shop', known), false);
  });
});
