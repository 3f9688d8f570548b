/**
 * The operator console in a real browser (Debian's Chromium via playwright-core) against the real `confbus server`
 * process, a real Git remote, a real RabbitMQ vhost and three sample-client processes. Every view renders real
 * data; a push shows live, the instance it leaves behind is highlighted as lagging without a reload, and the diff
 * linked from the commit is exactly the changed key; a refresh for one profile, then for one instance, reaches
 * exactly those clients, their acks appearing live under the action; a bus refresh for everything clicked in the
 * console brings all three instances onto the new commit in an open fleet view (the time it took is printed, not
 * asserted: bench/console-bench.mjs measures it), and the diff linked from that refresh event is the pushed key;
 * no secret value ever reaches the DOM or the API; axe-core finds no serious accessibility violation.
 * Screenshots go to test-output/console/ (git-ignored).
 */
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { type TestBrowser, launchChromium } from '@confbus/testkit/browser';
import { stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import type { Page } from 'playwright-core';
import { busSettings } from '../support/bus-fleet.js';
import {
  type RunningClient,
  type RunningServer,
  startClient,
  startServer,
  stopFleet,
  waitUntil,
} from '../support/fleet.js';

const OUTPUT = fileURLToPath(new URL('../../test-output/console/', import.meta.url));
const SECRETS = ['SECRET-token-1', 'SECRET-pass-2', 'SECRET-url-3'];
const WAIT = { timeout: 60_000 };
/** Generous: the DOM is polled until it holds, so this only bounds a failure on a loaded machine. */
const FLEET_TIMEOUT_MS = 120_000;

const FILES = {
  'application.yml': 'info:\n  team: platform\nshared:\n  api-token: SECRET-token-1\n',
  'sample.yml': [
    'group:',
    '  profile: default',
    '  comment: plain sample',
    'db:',
    '  password: SECRET-pass-2',
    '  url: jdbc:mysql://app:SECRET-url-3@db.internal/sample',
    '',
  ].join('\n'),
  'sample-dev.yml': 'group:\n  profile: dev\n  comment: dev one\n',
  'sample-real.yml': 'group:\n  profile: real\n  comment: real one\n',
};

/** The config version a sample client reports in its /actuator/env (`config.client.version`). */
async function configVersionOf(client: RunningClient): Promise<string | undefined> {
  const env = (await client.get('/actuator/env')).json as {
    propertySources: Array<{ name: string; properties: Record<string, { value: unknown }> }>;
  };
  const value = env.propertySources.find((s) => s.name === 'configClient')?.properties[
    'config.client.version'
  ]?.value;
  return typeof value === 'string' ? value : undefined;
}

describe('operator console in a browser', () => {
  let remote: GitRemote;
  let vhost: TestVhost;
  let server: RunningServer;
  let browser: TestBrowser;
  let page: Page;
  /** A second tab on the fleet view, kept open (never reloaded) while the other acts. */
  let fleetPage: Page;
  const clients: RunningClient[] = [];
  const commits: string[] = [];
  /** Every console API answer the browser received, to check that none carries a secret. */
  const apiBodies: string[] = [];

  before(async () => {
    await mkdir(OUTPUT, { recursive: true });
    remote = await createGitRemote();
    commits.push(await remote.commit(FILES, { message: 'sample configuration', tag: 'v1' }));
    vhost = await createTestVhost();
    server = await startServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'confbus.console.watch-interval': 1,
      ...busSettings(vhost.name),
    });
    for (const profile of ['dev', 'real', 'default'])
      clients.push(
        await startClient({
          'spring.profiles.active': profile,
          'spring.cloud.config.uri': server.base,
          ...busSettings(vhost.name),
        }),
      );
    browser = await launchChromium();
    page = await browser.context.newPage();
    fleetPage = await browser.context.newPage();
    for (const tab of [page, fleetPage])
      tab.on('response', (response) => {
        if (!response.url().includes('/-/console/api/') || response.url().endsWith('/api/events')) return;
        void response.text().then(
          (text) => apiBodies.push(text),
          () => undefined,
        );
      });
  });

  after(async () => {
    await browser?.close();
    await stopFleet();
    await stopAllNodeProcesses();
    await vhost?.remove();
    await remote?.remove();
  });

  /** Opens a view, waits for `ready`, checks the DOM for secrets and accessibility, and screenshots it. */
  async function visit(name: string, hash: string, ready: string): Promise<void> {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${server.base}/-/console/${hash}`);
    await page.locator(ready).first().waitFor(WAIT);
    await checkPage(name);
  }

  async function checkPage(name: string, tab: Page = page): Promise<void> {
    const html = await tab.content();
    for (const secret of SECRETS) assert.ok(!html.includes(secret), `${name}: the DOM holds ${secret}`);
    const { violations } = await new AxeBuilder({ page: tab }).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
      [],
      `${name}: accessibility`,
    );
    await tab.screenshot({ path: join(OUTPUT, `${name}-desktop.png`), fullPage: true });
    await tab.setViewportSize({ width: 390, height: 844 });
    await tab.screenshot({ path: join(OUTPUT, `${name}-phone.png`), fullPage: true });
    const overflow = await tab.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than a phone screen`);
    await tab.setViewportSize({ width: 1280, height: 900 });
  }

  const cell = (selector: string, text: string) => page.locator(selector).filter({ hasText: text }).first();

  it('renders every view with real data', async () => {
    await visit('overview', '', `[data-testid=current-commit]:has-text("${commits[0]!.slice(0, 10)}")`);
    assert.equal(await page.locator('[data-testid=repository-uri]').textContent(), remote.url);
    assert.equal(await page.locator('[data-testid=repository-state]').textContent(), 'UP');
    await cell('[data-testid=bus-state]', 'connected').waitFor(WAIT);
    await cell('[data-testid=instance-count]', '3').waitFor(WAIT);

    await visit('applications', '#/applications', '[data-testid=applications] >> text=sample');
    const sampleRow = page.locator('[data-testid=applications] tr', { hasText: 'sample' });
    assert.deepEqual(await sampleRow.locator('.chip').allTextContents(), ['default', 'dev', 'real']);
    await page.locator('[data-testid=labels] >> text=v1').waitFor(WAIT);
    assert.deepEqual(await page.locator('[data-testid=labels] a').allTextContents(), ['master', 'v1 (tag)']);

    await visit(
      'application',
      '#/applications/sample',
      '[data-testid=application-commits] >> text=sample configuration',
    );

    await visit('environment', '#/environment?application=sample&profiles=dev', '[data-key="group.comment"]');
    const comment = page.locator('[data-key="group.comment"]');
    assert.match(
      (await comment.textContent()) ?? '',
      /dev one.*plain sample/s,
      'the value and the one it overrides',
    );
    assert.match((await comment.textContent()) ?? '', /sample-dev\.yml/);
    assert.match((await page.locator('[data-key="db.password"]').textContent()) ?? '', /\*{6}/);
    assert.match((await page.locator('[data-key="db.url"]').textContent()) ?? '', /app:\*{6}@db\.internal/);

    await visit('fleet', '#/fleet', '[data-testid=fleet] tbody tr');
    // Polled from here: a predicate evaluated inside the page would need eval, which the page's CSP forbids.
    await waitUntil(
      'three instances in the fleet',
      async () => (await page.locator('[data-testid=fleet] tbody tr').count()) === 3,
      WAIT.timeout,
    );
    const states = await page
      .locator('[data-testid=fleet] tbody tr')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-state')));
    assert.deepEqual(states, ['current', 'current', 'current']);

    await visit('actions', '#/actions', 'button[type=submit]');
    await visit('holds', '#/holds', '[data-testid=no-holds]');
    await visit('rollouts', '#/rollouts', '[data-testid=no-rollouts]');
    // A rollout of an application no client of this test fetches, to a commit on another branch: the fleet and
    // the default label stay as they are for the tests below.
    const next = await remote.commit({ 'billing.yml': 'plan: next\n' }, { branch: 'next' });
    const started = await fetch(`${server.base}/-/rollouts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ application: 'billing', from: commits[0], to: next, waves: '1,100%' }),
    });
    assert.equal(started.status, 201, await started.clone().text());
    const { id } = (await started.json()) as { id: string };
    await visit('rollouts-list', '#/rollouts', '[data-testid=rollouts] [data-status=running]');
    await visit('rollout', `#/rollouts/${id}`, '[data-testid=rollout-actions] button');
    await page.locator('[data-testid=decisions] td[data-label=decision]', { hasText: 'start' }).waitFor(WAIT);
    // An operator's pause, confirmed with a reason, sent with the page's CSRF token.
    await page.locator('[data-testid=rollout-actions] button', { hasText: 'pause' }).click();
    await page.locator('#rollout-reason').fill('checking from the browser');
    await page.locator('[data-testid=rollout-confirm] button[type=submit]').click();
    await page.locator('[data-testid=rollout-status]:has-text("paused")').waitFor(WAIT);
    await cell('[data-testid=decisions] td[data-label=why]', 'checking from the browser').waitFor(WAIT);
  });

  /** The fleet tab's rows, as [data-state, data-version of the config version] per instance. */
  const fleetRows = () =>
    fleetPage
      .locator('[data-testid=fleet] tbody tr')
      .evaluateAll((rows) =>
        rows.map((row) => [
          row.getAttribute('data-state'),
          row.querySelector('[data-testid=config-version]')?.getAttribute('data-version'),
        ]),
      );

  /** The rows of the diff view the main tab shows, as [change, key]. */
  const diffRows = () =>
    page
      .locator('[data-testid=diff] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-change'), tr.querySelector('th')?.textContent]),
      );

  it('shows a push live, highlights the instance it leaves lagging, and the diff linked from its commit is the changed key', async () => {
    await fleetPage.setViewportSize({ width: 1280, height: 900 });
    await fleetPage.goto(`${server.base}/-/console/#/fleet`);
    await waitUntil(
      'three current instances in the fleet tab',
      async () => JSON.stringify((await fleetRows()).map((r) => r[0])) === '["current","current","current"]',
      FLEET_TIMEOUT_MS,
    );
    await page.goto(`${server.base}/-/console/`);
    await page.locator('[data-testid=live]:has-text("live")').waitFor(WAIT);
    commits.push(
      await remote.commit(
        { 'sample-dev.yml': 'group:\n  profile: dev\n  comment: dev two\n' },
        { message: 'dev comment' },
      ),
    );
    // No reload: the server notices the push (console watch) and both tabs hear it over server-sent events.
    await cell('[data-testid=current-commit]', commits[1]!.slice(0, 10)).waitFor(WAIT);
    const devRow = fleetPage.locator('[data-testid=fleet] tbody tr[data-state=lagging]');
    await waitUntil(
      'the dev instance lagging, the others on an older commit with the same configuration',
      async () =>
        JSON.stringify((await fleetRows()).map((r) => r[0]).sort()) ===
        '["lagging","same-config","same-config"]',
      FLEET_TIMEOUT_MS,
    );
    assert.match((await devRow.textContent()) ?? '', /sample:dev:/);
    assert.equal(await devRow.getAttribute('class'), 'sync-lagging');
    const background = (state: string) =>
      fleetPage
        .locator(`[data-testid=fleet] tbody tr[data-state=${state}]`)
        .first()
        .evaluate((row) => row.ownerDocument.defaultView?.getComputedStyle(row).backgroundColor);
    const [lagging, sameConfig] = [await background('lagging'), await background('same-config')];
    assert.notEqual(lagging, 'rgba(0, 0, 0, 0)', 'the lagging row has a background of its own');
    assert.notEqual(lagging, sameConfig, 'and it differs from the rows that are not lagging');
    await checkPage('fleet-lagging', fleetPage);

    // The diff linked from the commit, for the dev profile: exactly the key the push changed.
    await visit(
      'application-after-push',
      '#/applications/sample',
      `[data-testid=application-commits] >> text=${commits[1]!.slice(0, 10)}`,
    );
    const commitRow = page
      .locator('[data-testid=application-commits] tbody tr')
      .filter({ hasText: commits[1]!.slice(0, 10) });
    assert.deepEqual(await commitRow.locator('[data-testid=commit-diffs] a').allTextContents(), [
      'default',
      'dev',
      'real',
    ]);
    await commitRow.locator('[data-testid=commit-diffs] a', { hasText: 'dev' }).click();
    await page.locator('[data-testid=diff]').waitFor(WAIT);
    assert.match(page.url(), new RegExp(`#/diff\\?.*profiles=dev.*to=${commits[1]}`));
    assert.deepEqual(await diffRows(), [['changed', 'group.comment']]);
    assert.match((await page.locator('[data-testid=diff]').textContent()) ?? '', /dev one.*dev two/s);
    assert.equal(await page.locator('[data-testid=served-by]').textContent(), 'default');
    await checkPage('diff');
  });

  /** Publishes a refresh from the actions view (already showing the target); resolves with its destination. */
  async function publishFromActions(destination: string): Promise<void> {
    await page.locator('button[type=submit]', { hasText: destination }).click();
    await page.locator('dialog[open]').waitFor(WAIT);
    await page.locator('[data-testid=confirm-refresh]').click();
    await cell('[data-testid=published]', destination).waitFor(WAIT);
  }

  /** Waits, in the actions view and without a reload, until the refresh for `destination` shows `acks` acks. */
  async function acksShown(destination: string, acks: number): Promise<void> {
    const event = page.getByRole('region', { name: `Refresh for ${destination}` });
    await waitUntil(
      `${acks} ack(s) shown live for ${destination}`,
      async () =>
        (await event.locator('[data-testid=event-on-commit]').count()) === 1 &&
        (await event.locator('[data-testid=event-on-commit]').textContent()) === String(acks) &&
        new RegExp(`of ${acks} acknowledging`).test((await event.textContent()) ?? ''),
      FLEET_TIMEOUT_MS,
    );
  }

  const versions = async () => Promise.all(clients.map((client) => configVersionOf(client)));

  it('refreshes exactly the profile, then exactly the instance chosen in the console; acks appear live', async () => {
    const [dev, real, plain] = clients;
    assert.deepEqual(await versions(), [commits[0], commits[0], commits[0]]);

    await page.goto(`${server.base}/-/console/#/actions`);
    await page.locator('input[name=target][value=profile]').check();
    // Options are matched by text: Preact leaves out a value attribute equal to the text.
    await page
      .locator('#action-application option', { hasText: /^sample$/ })
      .waitFor({ state: 'attached', ...WAIT });
    await page.selectOption('#action-application', 'sample');
    await page.fill('#action-profile', 'real');
    await publishFromActions('sample:real:**');
    await acksShown('sample:real:**', 1);
    assert.equal(await configVersionOf(real!), commits[1], 'the real profile refreshed');
    assert.deepEqual(
      [await configVersionOf(dev!), await configVersionOf(plain!)],
      [commits[0], commits[0]],
      'the other profiles did not',
    );
    await checkPage('actions-profile');

    const fleet = (await (await fetch(`${server.base}/-/console/api/fleet`)).json()) as {
      items: Array<{ id: string; profiles: string[] }>;
    };
    const plainId = fleet.items.find((i) => ['', 'default'].includes(i.profiles.join(',')))?.id;
    assert.ok(plainId, JSON.stringify(fleet.items));
    await page.locator('input[name=target][value=instance]').check();
    await page
      .locator('#action-instance option', { hasText: plainId })
      .waitFor({ state: 'attached', ...WAIT });
    await page.selectOption('#action-instance', plainId);
    await publishFromActions(plainId);
    await acksShown(plainId, 1);
    assert.deepEqual(
      await versions(),
      [commits[0], commits[1], commits[1]],
      'the instance refreshed, the dev client still did not',
    );
  });

  it('refreshes all three clients from the console, and an open fleet view shows them on the new commit', async () => {
    commits.push(
      await remote.commit(
        { 'application.yml': FILES['application.yml'].replace('platform', 'core') },
        { message: 'team core' },
      ),
    );
    // Every client's configuration changed: all three lag, live in the fleet tab, before anything is clicked.
    await waitUntil(
      'all three instances lagging behind the new commit',
      async () => JSON.stringify((await fleetRows()).map((r) => r[0])) === '["lagging","lagging","lagging"]',
      FLEET_TIMEOUT_MS,
    );

    await page.goto(`${server.base}/-/console/#/actions`);
    await page.locator('input[name=target][value=all]').check();
    await page.locator('button[type=submit]').click();
    await page.locator('dialog[open]').waitFor(WAIT);
    await checkPage('actions-confirm');
    const clicked = Date.now();
    await page.locator('[data-testid=confirm-refresh]').click();
    // Polled in the fleet tab, which is never reloaded: the acks and announcements carry each new version.
    await waitUntil(
      'every fleet row on the new commit',
      async () => {
        const rows = await fleetRows();
        return (
          rows.length === 3 && rows.every(([state, version]) => state === 'current' && version === commits[2])
        );
      },
      FLEET_TIMEOUT_MS,
    );
    const elapsed = Date.now() - clicked;
    assert.deepEqual(await versions(), [commits[2], commits[2], commits[2]]);
    const dev = (await clients[0]!.get('/dynamic')).json as { comment?: string };
    assert.equal(dev.comment, 'dev two');
    await acksShown('**', 3);
    await waitUntil(
      "every instance's last refresh shown as applied",
      async () =>
        JSON.stringify(await fleetPage.locator('[data-testid=last-refresh]').allTextContents()) ===
        '["applied","applied","applied"]',
      FLEET_TIMEOUT_MS,
    );
    await checkPage('fleet-after-refresh', fleetPage);

    const event = fleetPage.locator('[data-testid=refresh-events] tbody tr').first();
    await event.locator('a', { hasText: 'Diff' }).click();
    await fleetPage.locator('[data-testid=diff]').waitFor(WAIT);
    assert.deepEqual(
      await fleetPage
        .locator('[data-testid=diff] tbody tr')
        .evaluateAll((trs) =>
          trs.map((tr) => [tr.getAttribute('data-change'), tr.querySelector('th')?.textContent]),
        ),
      [['changed', 'info.team']],
      'the diff linked from the refresh event: what its push changed',
    );
    await fleetPage.goto(`${server.base}/-/console/#/fleet`);
    await fleetPage
      .locator('[data-testid=refresh-events] tbody tr')
      .first()
      .locator('a', { hasText: 'Timeline' })
      .click();
    await fleetPage.locator('[data-testid=event-on-commit]:has-text("3")').waitFor(WAIT);
    await checkPage('refresh-timeline', fleetPage);
    // A diagnostic for the reviewer, never asserted (tests do not assert durations): bench/console-bench.mjs
    // measures "click to all instances on the new commit" as a benchmark row.
    console.log(
      `console refresh: all three instances on the new commit in the fleet view ${elapsed} ms after the click`,
    );
  });

  it('never sends a secret value to the page, the API or a download', async () => {
    for (const format of ['yml', 'properties', 'json']) {
      const download = await fetch(
        `${server.base}/-/console/api/environment/download?application=sample&profiles=dev&format=${format}`,
      );
      apiBodies.push(await download.text());
    }
    assert.ok(apiBodies.length > 20, `${apiBodies.length} API answers seen`);
    for (const body of apiBodies)
      for (const secret of SECRETS) assert.ok(!body.includes(secret), `an API answer holds ${secret}`);
  });
});
