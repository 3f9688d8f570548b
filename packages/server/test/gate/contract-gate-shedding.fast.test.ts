/**
 * What the contract gate keeps of a commit once a newer head's verdict is in: the head's environments and the
 * commit each held application is served stay cached; a superseded head's environments, scope and verdicts are
 * let go (asked again, they are built again), so pushes do not pile up commits' worth of environments.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { environmentRequest } from '../../src/environment/environment-service.js';
import type { ResolvedEnvironment } from '../../src/environment/resolved-environment.js';
import { type FakeTestServer, startTestServer } from '../server-harness.js';

const CONTRACT = (app: string) =>
  JSON.stringify({
    type: 'object',
    properties: { [app]: { type: 'object', properties: { size: { type: 'integer', minimum: 1 } } } },
  });

const GOOD = {
  'application.yml': 'server:\n  port: 8080\n',
  'shop.yml': 'shop:\n  size: 4\n',
  'billing.yml': 'billing:\n  size: 2\n',
  '.confbus/contracts/shop.schema.json': CONTRACT('shop'),
  '.confbus/contracts/billing.schema.json': CONTRACT('billing'),
};

describe('the contract gate lets go of superseded commits', () => {
  let server: FakeTestServer;
  const shop = environmentRequest(['shop'], ['default'], null);

  before(async () => {
    server = await startTestServer(
      { 'spring.cloud.bus.enabled': 'true', 'logging.level.root': 'warn' },
      { files: GOOD },
    );
  });
  after(() => server.stop());

  /** Pushes `files`, sends the webhook, and judges the head once more so that the newest judgement is known. */
  async function pushed(files: Record<string, string>): Promise<string> {
    const commit = server.repository.push(files);
    const response = await fetch(`${server.base}/monitor`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push' },
      body: JSON.stringify({ commits: [{ modified: ['application.yml'] }] }),
    });
    await response.arrayBuffer();
    await server.server.gate!.gate.judge({ label: 'master', commit, stale: false });
    return commit;
  }

  /** shop/default as cached at `commit` (built when it is not), and whether that took a build. */
  async function shopAt(commit: string): Promise<{ resolved: ResolvedEnvironment; built: boolean }> {
    const environments = server.server.environments!;
    const builds = environments.builds;
    const { resolved } = await environments.findAtRevision(shop, { label: 'master', commit, stale: false });
    return { resolved, built: environments.builds > builds };
  }

  it('keeps the head, lets go of the head before it', async () => {
    const first = await pushed({ ...GOOD, 'application.yml': 'server:\n  port: 8081\n' });
    const atFirst = await shopAt(first);
    assert.equal(atFirst.built, false, 'the verdict built it, and the head is kept');
    const second = await pushed({ ...GOOD, 'application.yml': 'server:\n  port: 8082\n' });
    assert.equal((await shopAt(second)).built, false);
    const again = await shopAt(first);
    assert.equal(again.built, true, 'the superseded head was let go');
    assert.notEqual(again.resolved, atFirst.resolved);
  });

  it('keeps one commit of scopes and verdicts however many pushes passed', async () => {
    for (let port = 8083; port < 8088; port++)
      await pushed({ ...GOOD, 'application.yml': `server:\n  port: ${port}\n` });
    assert.deepEqual(server.server.gate!.verdicts.kept, { scopes: 1, verdicts: 2 });
  });

  it('keeps the commit a held application is served until the hold ends', async () => {
    const valid = await pushed({ ...GOOD, 'application.yml': 'server:\n  port: 8090\n' });
    const served = await shopAt(valid);
    const broken = await pushed({ ...GOOD, 'shop.yml': 'shop:\n  size: 0\n' });
    const brokenAgain = await pushed({ ...GOOD, 'shop.yml': 'shop:\n  size: -1\n' });
    const hold = server.server.gate!.gate.holds().find((h) => h.application === 'shop');
    assert.equal(hold?.servedCommit, valid);
    assert.equal(hold.heldHead, brokenAgain);
    const still = await shopAt(valid);
    assert.equal(still.built, false, 'what the held application is served stays cached');
    assert.equal(still.resolved, served.resolved);
    const response = await server.get('/shop/default');
    assert.equal((response.json() as { version: string }).version, valid);
    assert.equal((await shopAt(broken)).built, true, 'a superseded broken head was let go');

    const fixed = await pushed({ ...GOOD, 'shop.yml': 'shop:\n  size: 3\n' });
    assert.equal(server.server.gate!.gate.holds().length, 0);
    assert.equal((await shopAt(fixed)).built, false);
    assert.equal((await shopAt(valid)).built, true, 'the hold ended: its commit was let go');
  });
});
