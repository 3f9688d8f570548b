/**
 * The contract gate on real Git, with two server replicas on one remote: a push that breaks an application's
 * contract is served by neither (both serve the last valid commit and name the held-back head), the other
 * application of the push is served by both, a replica started afterwards on a fresh mirror decides the same
 * (holds are derived from Git, never stored), and a fixing push releases the hold on every replica.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const CONTRACT = JSON.stringify({
  type: 'object',
  properties: {
    shop: { type: 'object', properties: { 'pool-size': { type: 'integer', minimum: 1 } } },
  },
});

const versionOf = (response: { json(): unknown }) => (response.json() as { version: string }).version;

describe('the contract gate on real Git, two replicas', () => {
  let remote: GitRemote;
  const servers: TestServer[] = [];
  let valid: string;
  let broken: string;

  const start = async () => {
    const server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'logging.level.root': 'warn',
    });
    servers.push(server);
    return server;
  };

  before(async () => {
    remote = await createGitRemote();
    valid = await remote.commit({
      'application.yml': 'server:\n  port: 8080\n',
      'shop.yml': 'shop:\n  pool-size: 4\n',
      'billing.yml': 'billing:\n  currency: EUR\n',
      '.confbus/contracts/shop.schema.json': CONTRACT,
    });
    await start();
    await start();
  });
  after(async () => {
    for (const server of servers) await server.stop();
    await remote.remove();
  });

  it('both replicas hold the application back at the last valid commit, and serve the others the head', async () => {
    for (const server of servers) assert.equal(versionOf(await server.get('/shop/default')), valid);
    broken = await remote.commit({
      'shop.yml': 'shop:\n  pool-size: 0\n',
      'billing.yml': 'billing:\n  currency: USD\n',
    });
    for (const server of servers) {
      const shop = await server.get('/shop/default');
      assert.equal(versionOf(shop), valid);
      assert.equal(shop.headers.get('x-confbus-held-head'), broken);
      assert.equal(versionOf(await server.get('/billing/default')), broken);
    }
  });

  it('a replica started afterwards, on a fresh mirror, decides the same', async () => {
    const restarted = await start();
    const shop = await restarted.get('/shop/default');
    assert.equal(versionOf(shop), valid);
    assert.equal(shop.headers.get('x-confbus-held-head'), broken);
    const gate = (await restarted.get('/actuator/contract-gate')).json() as {
      holds: Array<{ application: string; violations: Array<{ file: string; line: number; key: string }> }>;
    };
    assert.deepEqual(
      gate.holds.map((h) => [
        h.application,
        h.violations[0]?.key,
        h.violations[0]?.file,
        h.violations[0]?.line,
      ]),
      [['shop', 'shop.pool-size', 'shop.yml', 2]],
    );
  });

  it('a fixing push releases the hold on every replica', async () => {
    const fixed = await remote.commit({ 'shop.yml': 'shop:\n  pool-size: 3\n' });
    for (const server of servers) {
      const shop = await server.get('/shop/default');
      assert.equal(versionOf(shop), fixed);
      assert.equal(shop.headers.get('x-confbus-held-head'), null);
    }
  });
});
