/**
 * The operator console in a real browser (Debian's Chromium via playwright-core) against the real `confbus server`
 * process, a real Git remote, a real RabbitMQ vhost and three sample-client processes. Every view renders real
 * data; a push shows live and its diff is exactly the changed key; a bus refresh clicked in the console reaches
 * all three clients and the fleet view shows them on the new commit; no secret value ever reaches the DOM or the
 * API; axe-core finds no serious accessibility violation. Screenshots go to test-output/console/ (git-ignored).
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
    page.on('response', (response) => {
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

  async function checkPage(name: string): Promise<void> {
    const html = await page.content();
    for (const secret of SECRETS) assert.ok(!html.includes(secret), `${name}: the DOM holds ${secret}`);
    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
      [],
      `${name}: accessibility`,
    );
    await page.screenshot({ path: join(OUTPUT, `${name}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(OUTPUT, `${name}-phone.png`), fullPage: true });
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than a phone screen`);
    await page.setViewportSize({ width: 1280, height: 900 });
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
  });

  it('shows a push live, and its diff is exactly the changed key', async () => {
    await page.goto(`${server.base}/-/console/`);
    await page.locator('[data-testid=live]:has-text("live")').waitFor(WAIT);
    commits.push(
      await remote.commit(
        { 'sample-dev.yml': 'group:\n  profile: dev\n  comment: dev two\n' },
        { message: 'dev comment' },
      ),
    );
    // No reload: the server notices the push (console watch) and the page hears it over server-sent events.
    await cell('[data-testid=current-commit]', commits[1]!.slice(0, 10)).waitFor(WAIT);

    await visit('diff', `#/diff?application=sample&profiles=dev&to=${commits[1]}`, '[data-testid=diff]');
    const rows = await page
      .locator('[data-testid=diff] tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => [tr.getAttribute('data-change'), tr.querySelector('th')?.textContent]),
      );
    assert.deepEqual(rows, [['changed', 'group.comment']]);
    assert.match((await page.locator('[data-testid=diff]').textContent()) ?? '', /dev one.*dev two/s);
  });

  it('refreshes all three clients from the console, and the fleet shows them on the new commit', async () => {
    await page.goto(`${server.base}/-/console/#/actions`);
    await page.locator('input[name=target][value=all]').check();
    await page.locator('button[type=submit]').click();
    await page.locator('dialog[open]').waitFor(WAIT);
    await checkPage('actions-confirm');
    await page.locator('[data-testid=confirm-refresh]').click();
    await page.locator('[data-testid=published]').waitFor(WAIT);

    const dev = clients[0]!;
    const elapsed = await waitUntil('the dev client serving the new comment', async () => {
      const body = (await dev.get('/dynamic')).json as { comment?: string };
      return body.comment === 'dev two';
    });
    for (const client of clients)
      await waitUntil(
        'every client on the new commit',
        async () => (await configVersionOf(client)) === commits[1],
      );
    await page.goto(`${server.base}/-/console/#/fleet`);
    // Live, without a reload: the acks and announcements carry the version each client now serves.
    const onTheCommit = page.locator(`[data-testid=config-version][data-version="${commits[1]}"]`);
    await waitUntil(
      'every fleet row on the new commit',
      async () => (await onTheCommit.count()) === 3,
      WAIT.timeout,
    );
    assert.equal(await page.locator('[data-testid=config-version]').count(), 3);
    await checkPage('fleet-after-refresh');
    await page.goto(`${server.base}/-/console/#/fleet`);
    const event = page.locator('[data-testid=refresh-events] tbody tr').first();
    await event.locator('a', { hasText: 'Timeline' }).click();
    await cell('[data-testid=event-on-commit]', '3').waitFor(WAIT);
    await checkPage('refresh-timeline');
    // Recorded for the reviewer, not asserted: wall-clock times depend on the machine's load.
    console.log(`dev client served the new value ${elapsed} ms after polling began`);
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
