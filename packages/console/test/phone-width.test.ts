/**
 * The console at phone width (390×844) in a real browser (Debian's Chromium via playwright-core), against the built
 * page served from disk and a fake console API (page.route): the fleet's state column and the events' diff links
 * stay on screen, commit ids never wrap mid-hash, the Actions form's labels line up and an incomplete target is
 * refused inline with nothing published, and the event stream is reopened after a 503 (the browser's EventSource
 * gives up for good on an answer that is not a stream).
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { consoleAssetsDir } from '@confbus/console';
import { type TestBrowser, launchChromium } from '@confbus/testkit/browser';
import type { Page, Route } from 'playwright-core';

/**
 * What the page functions below use of the browser's globals (tests compile without the DOM library); each casts
 * `globalThis` inline, as a page function cannot reach anything of this module.
 */
interface PageGlobals {
  innerWidth: number;
  document: { documentElement: { scrollWidth: number }; querySelector(selector: string): unknown };
  getComputedStyle(element: unknown): { lineHeight: string };
}

const HASH = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const OLD = '0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c';
const NOW = '2026-11-28T06:00:00.000Z';
const instance = (id: string, state: string) => ({
  id,
  kind: 'confbus',
  application: 'orders-service-with-a-long-name',
  profiles: ['production', 'eu-west-1'],
  label: null,
  configVersion: state === 'current' ? HASH : OLD,
  startedAt: NOW,
  lastSeenAt: NOW,
  state,
  latest: HASH,
  // A long reason must wrap inside its cell at phone width.
  lastRefresh:
    state === 'current'
      ? { outcome: 'applied', at: NOW }
      : {
          outcome: 'rejected',
          reason:
            "the new configuration is rejected by the application's schema: orders.pool-size must be >= 1",
          at: NOW,
        },
});
const API: Record<string, unknown> = {
  session: { authEnabled: false, csrfToken: 't', csrfHeader: 'x-csrf', busEnabled: true },
  fleet: {
    items: [
      instance('orders-service-with-a-long-name:production,eu-west-1:8080:3f2a9c', 'lagging'),
      instance('orders:b', 'current'),
    ],
    total: 2,
    offset: 0,
    limit: 50,
    counts: { current: 1, 'same-config': 0, lagging: 1, unknown: 0 },
  },
  'refresh-events': {
    items: [
      {
        id: 'ev-1',
        destination: 'orders-service-with-a-long-name:production:**',
        commit: HASH,
        previousCommit: OLD,
        publishedAt: NOW,
        ackCount: 2,
        onCommit: 1,
        rejected: 1,
        slowestMs: 120,
        timeline: [],
        diffTarget: { application: 'orders-service-with-a-long-name', profiles: 'production' },
      },
    ],
    total: 1,
    offset: 0,
    limit: 20,
  },
  applications: { items: [{ name: 'orders' }], total: 1, offset: 0, limit: 500 },
};

describe('console at phone width (390×844)', () => {
  let browser: TestBrowser;
  let server: Server;
  let base: string;
  let eventRequests = 0;
  const posted: string[] = [];

  before(async () => {
    const dir = consoleAssetsDir();
    assert.ok(dir, 'the console is built (npm run build --workspace @confbus/console)');
    const types: Record<string, string> = {
      '.html': 'text/html',
      '.js': 'text/javascript',
      '.css': 'text/css',
    };
    server = createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/-\/console\/?/, '/');
      const file = join(dir, path === '/' ? 'index.html' : path.slice(1));
      readFile(file).then(
        (body) =>
          res
            .writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
            .end(body),
        () => res.writeHead(404).end(),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/-/console/`;
    browser = await launchChromium();
  });
  after(async () => {
    await browser.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const fakeApi = async (route: Route) => {
    const url = new URL(route.request().url());
    const name = url.pathname.replace(/^.*\/api\//, '');
    if (name === 'events') {
      eventRequests++;
      // The first answer is a 503 (a server that drains); then a stream.
      if (eventRequests === 1)
        return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
      return route.fulfill({ status: 200, contentType: 'text/event-stream', body: 'retry: 60000\n\n' });
    }
    if (route.request().method() === 'POST') posted.push(name);
    const body = API[name];
    return body === undefined
      ? route.fulfill({ status: 404, contentType: 'application/json', body: '{"message":"not faked"}' })
      : route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(body) });
  };

  const open = async (hash: string): Promise<Page> => {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route('**/api/**', fakeApi);
    await page.goto(`${base}${hash}`);
    return page;
  };

  /** Whether the element lies within the viewport's width (nothing to scroll sideways for). */
  const onScreen = (page: Page, selector: string) =>
    page.$$eval(selector, (elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return (
          box.width > 0 && box.left >= 0 && box.right <= (globalThis as unknown as PageGlobals).innerWidth
        );
      }),
    );

  it('keeps the fleet state column and the diff links on screen, commit ids on one line', async () => {
    const page = await open('#/fleet');
    try {
      await page.waitForSelector('[data-testid="instance-state"]');
      await page.waitForSelector('[data-testid="event-links"] a');
      assert.deepEqual(await onScreen(page, '[data-testid="instance-state"] .badge'), [true, true]);
      assert.deepEqual(await onScreen(page, '[data-testid="event-links"] a'), [true, true]);
      const lines = await page.$$eval('code.commit', (codes) =>
        codes.map((code) =>
          Math.round(
            code.getBoundingClientRect().height /
              parseFloat((globalThis as unknown as PageGlobals).getComputedStyle(code).lineHeight || '16'),
          ),
        ),
      );
      assert.ok(lines.length >= 3, 'commit ids are shown');
      for (const count of lines) assert.ok(count <= 1, `a commit id spans ${count} lines`);
      assert.equal(
        await page.evaluate(
          () =>
            (globalThis as unknown as PageGlobals).document.documentElement.scrollWidth <=
            (globalThis as unknown as PageGlobals).innerWidth,
        ),
        true,
        'the page does not scroll sideways',
      );
    } finally {
      await page.close();
    }
  });

  it('refuses an incomplete target inline, publishing nothing; the labels line up', async () => {
    const page = await open('#/actions');
    try {
      await page.getByLabel('one application', { exact: true }).check();
      await page.getByRole('button', { name: /Refresh/ }).click();
      const message = page.getByTestId('action-missing');
      await message.waitFor();
      assert.equal(await message.textContent(), 'Choose an application first.');
      assert.equal(await page.locator('dialog[open]').count(), 0, 'no confirmation for an incomplete target');
      assert.deepEqual(posted, []);
      // Chosen, the form confirms.
      await page.selectOption('#action-application', 'orders');
      await page.getByRole('button', { name: /Refresh orders:\*\*/ }).click();
      await page.locator('dialog[open]').waitFor();
      assert.equal(await message.count(), 0);
      // Each label above its field: the fields share one left edge.
      await page.keyboard.press('Escape');
      await page.getByLabel('an application with a profile').check();
      const lefts = await page.$$eval('#action-application, #action-profile', (fields) =>
        fields.map((field) => Math.round(field.getBoundingClientRect().left)),
      );
      assert.equal(lefts.length, 2);
      assert.equal(lefts[0], lefts[1]);
    } finally {
      await page.close();
    }
  });

  it('reopens the event stream after a 503', async () => {
    eventRequests = 0;
    const page = await open('#/fleet');
    try {
      await page.waitForSelector('[data-testid="fleet"]');
      // The first answer was a 503; the page opens a new stream after its back-off (about a second).
      const deadline = Date.now() + 20_000;
      while (eventRequests < 2 && Date.now() < deadline) await page.waitForTimeout(100);
      assert.ok(eventRequests >= 2, `the stream was requested ${eventRequests} time(s)`);
    } finally {
      await page.close();
    }
  });
});
