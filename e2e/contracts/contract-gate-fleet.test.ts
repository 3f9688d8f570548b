// The contract gate end to end: a git remote, `confbus server` on a RabbitMQ vhost of its own, and
// `confbus sample-client` processes of two applications on the bus, all real processes on 127.0.0.1. A push that
// breaks one application's contract reaches none of its instances (none refreshes, none serves it, one starting
// afterwards gets the last valid commit) while the other application of the same push is delivered; a fixing
// push releases the hold. (packages/server/test/gate/ covers replicas and restarts over HTTP, without a fleet.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  type ConfbusProcess,
  getJson,
  startConfbusServer,
  startSampleClientProcess,
  waitFor,
} from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { RABBIT_HOST, RABBIT_PORT, type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { metricSample } from '@confbus/testkit/prometheus-text';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { logMessages, postPushWebhook } from '../support/bus-fleet.js';

const REFRESHES_HEARD = 'confbus_bus_events_received_total{type="RefreshRemoteApplicationEvent"}';

const group = (comment: string) => `group:\n  profile: base\n  comment: ${comment}\n`;
/** The shop's contract: a short comment, at most 12 characters. */
const SHOP_CONTRACT = JSON.stringify({
  type: 'object',
  properties: {
    group: {
      type: 'object',
      properties: { comment: { type: 'string', maxLength: 12 } },
      required: ['comment'],
    },
  },
  required: ['group'],
});

interface HeldAnswer {
  code: string;
  commit: string;
  held: Array<{
    application: string;
    servedCommit: string;
    violations: Array<{ key: string; rule: string }>;
  }>;
  refreshed: string[];
}

describe('the contract gate with a real fleet on the bus', { timeout: 600_000 }, () => {
  let vhost: TestVhost;
  let remote: GitRemote;
  let temp: { path: string; remove: () => Promise<void> };
  let server: ConfbusProcess;
  const shops: ConfbusProcess[] = [];
  let billing: ConfbusProcess;
  let valid: string;

  const startClient = (application: string, id: string) =>
    startSampleClientProcess(
      [
        '--server.port=0',
        `--spring.application.name=${application}`,
        `--spring.cloud.config.uri=${server.url}`,
        `--confbus.client.instance-id=${id}`,
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
        // Its bus metrics say which refresh events reached it, addressed to it or not.
        '--management.endpoints.web.exposure.include=health,refresh,prometheus',
      ],
      {},
      { cwd: temp.path, timeoutMs: 120_000 },
    );
  const comment = async (client: ConfbusProcess) =>
    ((await getJson(`${client.url}/dynamic`)).body as { comment: string }).comment;
  const refreshesHeard = async (client: ConfbusProcess) => {
    const text = await (await fetch(`${client.url}/actuator/prometheus`)).text();
    return metricSample(text, REFRESHES_HEARD) ?? 0;
  };
  const served = async (application: string) => {
    const response = await fetch(`${server.url}/${application}/default`);
    const body = (await response.json()) as { version: string };
    return { version: body.version, heldHead: response.headers.get('x-confbus-held-head') };
  };

  before(async () => {
    vhost = await createTestVhost();
    remote = await createGitRemote();
    temp = await makeTempDir();
    valid = await remote.commit({
      'shop.yml': group('first'),
      'billing.yml': group('first'),
      '.confbus/contracts/shop.schema.json': SHOP_CONTRACT,
    });
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: `${temp.path}/mirror`,
      cwd: temp.path,
      args: [
        '--spring.cloud.bus.enabled=true',
        `--spring.rabbitmq.host=${RABBIT_HOST}`,
        `--spring.rabbitmq.port=${RABBIT_PORT}`,
        `--spring.rabbitmq.virtual-host=${vhost.name}`,
      ],
    });
    // One at a time: Node processes starting at once on a loaded two-core machine start slowly.
    shops.push(await startClient('shop', 'shop-0'));
    shops.push(await startClient('shop', 'shop-1'));
    billing = await startClient('billing', 'billing-0');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
    await temp?.remove();
  });

  it('a push breaking the shop contract reaches no shop instance, while billing in the same push is delivered', async () => {
    for (const client of [...shops, billing]) assert.equal(await comment(client), 'first');
    const marks = shops.map((shop) => shop.process.lines.length);
    const heard = await Promise.all(shops.map(refreshesHeard));
    const broken = await remote.commit({
      'shop.yml': group('far-too-long-for-the-contract'),
      'billing.yml': group('second'),
    });

    const webhook = await postPushWebhook(server.url, ['shop.yml', 'billing.yml']);
    const answer = webhook.json as HeldAnswer;
    assert.equal(webhook.status, 422, JSON.stringify(answer));
    assert.equal(answer.code, 'CONFBUS_CONTRACT_HELD');
    assert.equal(answer.commit, broken);
    assert.deepEqual(answer.refreshed, ['billing']);
    assert.deepEqual(
      answer.held.map((hold) => [hold.application, hold.servedCommit]),
      [['shop', valid]],
    );
    assert.deepEqual(
      answer.held[0]?.violations.map((v) => [v.key, v.rule]),
      [['group.comment', 'maxLength']],
    );

    await waitFor('billing takes the push', async () => (await comment(billing)) === 'second');
    // Every shop heard billing's refresh event on the bus and let it pass: the bus has delivered what this push
    // published, so the absence of a shop refresh below is not a race.
    for (const [index, shop] of shops.entries()) {
      await waitFor(
        `shop-${index} heard the event for billing`,
        async () => (await refreshesHeard(shop)) > (heard[index] ?? 0),
      );
      const since = logMessages(shop.process, marks[index]);
      assert.equal(
        since.filter((m) => m.includes('Keys refreshed') || m.startsWith('Refresh keys changed')).length,
        0,
        `shop-${index} refreshed: ${since.join(' | ')}`,
      );
      assert.equal(await comment(shop), 'first');
    }
    assert.deepEqual(await served('shop'), { version: valid, heldHead: broken });
    assert.deepEqual(await served('billing'), { version: broken, heldHead: null });

    // An instance starting while the hold lasts is given the last valid commit.
    const late = await startClient('shop', 'shop-2');
    shops.push(late);
    assert.equal(await comment(late), 'first');
  });

  it('a fixing push releases the hold: every shop instance refreshes to it', async () => {
    const fixed = await remote.commit({ 'shop.yml': group('fixed') });
    const webhook = await postPushWebhook(server.url, ['shop.yml']);
    assert.equal(webhook.status, 200, JSON.stringify(webhook.json));
    assert.deepEqual(webhook.json, ['shop']);
    for (const [index, shop] of shops.entries())
      await waitFor(`shop-${index} takes the fix`, async () => (await comment(shop)) === 'fixed');
    assert.deepEqual(await served('shop'), { version: fixed, heldHead: null });
    assert.equal(await comment(billing), 'second');
  });
});
