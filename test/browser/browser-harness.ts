import fs from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { type SampleAccount, seedSampleAccount } from './sample-data.js';

/** Debian's Chromium; the browser tests drive it, headless. */
export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const RESULTS_DIR = path.resolve('test-results');
/** Set by `npm run screenshots`: where the README's screenshots are written. */
const README_IMAGES = process.env.WAYBILL_SCREENSHOTS_DIR ? path.resolve(process.env.WAYBILL_SCREENSHOTS_DIR) : null;

const available = fs.existsSync(CHROMIUM);
const required = process.env.CI_REQUIRE_BROWSER === '1';

/**
 * A browser suite: runs when Chromium is installed; skipped with the reason when it is not, except where
 * CI_REQUIRE_BROWSER=1 (CI), where a missing browser is a failure.
 */
export function describeWithBrowser(name: string, suite: () => void): void {
  if (available) {
    describe(name, suite);
  } else if (required) {
    describe(name, () => {
      it('needs Chromium', () => {
        throw new Error(`${CHROMIUM} is missing and CI_REQUIRE_BROWSER=1: install it (apt-get install -y chromium)`);
      });
    });
  } else {
    describe.skip(
      `${name} (skipped: no Chromium at ${CHROMIUM}; install it with apt-get install chromium to run the browser tests)`,
      suite,
    );
  }
}

/**
 * Chromium with a fresh temporary profile (Playwright makes one for every launch and removes it on close),
 * no sandbox, nothing that calls out to the network by itself.
 */
function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}

/** The service on a real HTTP server, on an ephemeral loopback port. */
async function startServer(env?: Record<string, string>): Promise<{ t: TestApp; baseUrl: string }> {
  const t = await createTestApp({ env });
  const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  return { t, baseUrl };
}

/** Where a screenshot goes: always test-results/, and the README's images when asked for. */
export function screenshotPaths(name: string): { result: string; readme: string | null } {
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  if (README_IMAGES) fs.mkdirSync(README_IMAGES, { recursive: true });
  return { result: path.join(RESULTS_DIR, `${name}.png`), readme: README_IMAGES ? path.join(README_IMAGES, `${name}.png`) : null };
}

export function saveScreenshot(name: string, png: Buffer): void {
  const paths = screenshotPaths(name);
  fs.writeFileSync(paths.result, png);
  if (paths.readme) fs.writeFileSync(paths.readme, png);
}

/** What a browser suite works with: the service on a real port, the sample merchant, and Chromium. */
export interface BrowserWorld {
  t: TestApp;
  baseUrl: string;
  browser: Browser;
  sample: SampleAccount;
}

/** Starts the service (with `env` added to its environment) with the sample merchant and Chromium before the suite, and stops both after it. */
export function useSampleWorld(env?: () => Record<string, string>): BrowserWorld {
  const world = {} as BrowserWorld;
  beforeAll(async () => {
    Object.assign(world, await startServer(env?.()));
    world.sample = await seedSampleAccount(world.t);
    world.browser = await launchBrowser();
  });
  afterAll(async () => {
    await world.browser?.close();
    await world.t?.close();
  });
  return world;
}

/** Errors the page reports (console errors, failed responses), but the browser's own favicon request and what `ignore` accepts. */
export function collectPageErrors(page: Page, ignore: (url: string) => boolean = () => false): string[] {
  const errors: string[] = [];
  const ours = (url: string) => !url.endsWith('/favicon.ico') && !ignore(url);
  page.on('console', (message) => {
    if (message.type() === 'error' && ours(message.location().url)) errors.push(message.text());
  });
  page.on('response', (res) => {
    if (res.status() >= 400 && ours(res.url())) errors.push(`${res.status()} ${res.url()}`);
  });
  return errors;
}
