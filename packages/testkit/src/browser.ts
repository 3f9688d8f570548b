/**
 * Headless Chromium for browser tests: Debian's /usr/bin/chromium driven by playwright-core (which never
 * downloads a browser), with a fresh profile directory and the flags this machine needs — no sandbox (tests run
 * as root), no GPU, and no background networking (its connections are refused here, many at a time).
 */
import { existsSync } from 'node:fs';
import { type BrowserContext, chromium } from 'playwright-core';
import { makeTempDir } from './temp-dir.js';

export const CHROMIUM_PATH = process.env.CONFBUS_CHROMIUM ?? '/usr/bin/chromium';

export interface TestBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/** Launches Chromium; fails with the install command when it is missing (.ci/run installs it). */
export async function launchChromium(): Promise<TestBrowser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium) or set CONFBUS_CHROMIUM`,
    );
  }
  const profile = await makeTempDir('confbus-chromium-');
  const context = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  return {
    context,
    async close() {
      await context.close().catch(() => undefined);
      await profile.remove();
    },
  };
}
