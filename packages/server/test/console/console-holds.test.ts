/**
 * The console's view of the contract gate on real Git: an application a push breaks is listed with each
 * violation (profiles, key, rule, file and line, contract; never the value), and an operator's release from the
 * console needs the CSRF token, serves the head to that application and is audited.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { ConsoleHolds } from '@confbus/core';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

const CONTRACT = JSON.stringify({
  type: 'object',
  properties: {
    shop: { type: 'object', properties: { 'pool-size': { type: 'integer', minimum: 1 } } },
  },
});

describe('console: contract holds', () => {
  let remote: GitRemote;
  let server: TestServer;
  let valid: string;
  let broken: string;

  before(async () => {
    remote = await createGitRemote();
    valid = await remote.commit({
      'shop.yml': 'shop:\n  pool-size: 4\n',
      '.confbus/contracts/shop.schema.json': CONTRACT,
    });
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'logging.level.root': 'warn',
    });
  });
  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  const holds = async () => {
    const answer = await server.get('/-/console/api/holds');
    assert.equal(answer.status, 200, answer.body);
    return answer.json() as ConsoleHolds;
  };
  const release = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.base}/-/console/api/holds/release`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('lists nothing while every contract holds', async () => {
    assert.deepEqual(await holds(), { enabled: true, holds: [], releases: [] });
  });

  it('lists an application a push breaks, with each violation and where it was written', async () => {
    broken = await remote.commit({ 'shop.yml': '# fewer\nshop:\n  pool-size: 0\n' });
    // The server learns of the push (here from a request; a webhook or a poll does the same).
    const shop = (await server.get('/shop/default')).json() as { version: string };
    assert.equal(shop.version, valid, 'held back');
    const listed = await holds();
    assert.deepEqual(
      listed.holds.map((hold) => [hold.application, hold.heldHead, hold.servedCommit]),
      [['shop', broken, valid]],
    );
    assert.deepEqual(listed.holds[0]?.violations, [
      {
        profiles: ['default'],
        key: 'shop.pool-size',
        rule: 'minimum',
        message: 'must be >= 1',
        contract: '.confbus/contracts/shop.schema.json',
        file: 'shop.yml',
        line: 3,
      },
    ]);
    assert.ok(!JSON.stringify(listed).includes('pool-size: 0'), 'no value is shown');
  });

  it('releases a hold from the console with the CSRF token only, audited', async () => {
    const fields = { application: 'shop', commit: broken, reason: 'pool of 0 on purpose: maintenance' };
    const refused = await release(fields);
    assert.equal(refused.status, 403);
    assert.equal(((await refused.json()) as { code: string }).code, 'CONFBUS_CONSOLE_CSRF');
    const session = (await server.get('/-/console/api/session')).json() as {
      csrfToken: string;
      csrfHeader: string;
    };
    const csrf = { [session.csrfHeader]: session.csrfToken };
    const malformed = await release({ application: 'shop', commit: 'HEAD', reason: 'x' }, csrf);
    assert.equal(malformed.status, 400);
    const answered = await release(fields, csrf);
    assert.equal(answered.status, 200, await answered.clone().text());
    const { released } = (await answered.json()) as { released: { application: string; by: string } };
    assert.deepEqual([released.application, released.by], ['shop', 'anonymous']);
    const shop = (await server.get('/shop/default')).json() as { version: string };
    assert.equal(shop.version, broken, 'the head is served to shop now');
    const listed = await holds();
    assert.deepEqual(listed.holds, []);
    assert.deepEqual(
      listed.releases.map((r) => [r.application, r.commit, r.reason]),
      [['shop', broken, fields.reason]],
    );
    const audit = (await server.get('/-/console/api/audit')).json() as {
      entries: Array<{ action: string; target?: string }>;
    };
    assert.ok(
      audit.entries.some((entry) => entry.action === 'hold.release' && entry.target === `shop@${broken}`),
      'the release is in the audit log',
    );
    const again = await release(fields, csrf);
    assert.equal(again.status, 404, 'released already: no hold at that commit');
  });
});
