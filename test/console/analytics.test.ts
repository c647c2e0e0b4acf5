import * as Plot from '@observablehq/plot';
import { parseHTML } from 'linkedom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { CHART_CLASS } from '../../src/http/pages/console/analytics-charts.js';
import { CONSOLE_CSS } from '../../src/http/pages/console/console-styles.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { type ConsoleBrowser, signIn, visibleText } from './console-client.js';
import { accountIdOf, insertDay, insertFact, type LaneSpec } from './delivery-rows.js';

const DHL_DE: LaneSpec = { carrier: 'dhl-main', service: 'standard', origin: 'DE', destination: 'DE', prefix: '10' };
const DHL_FR: LaneSpec = { carrier: 'dhl-main', service: 'standard', origin: 'DE', destination: 'FR', prefix: '75' };
const UPS_FR: LaneSpec = { carrier: 'ups-eu', service: 'express', origin: 'DE', destination: 'FR', prefix: '69' };
const THEIRS: LaneSpec = { carrier: 'gls-theirs', service: 'standard', origin: 'DE', destination: 'AT', prefix: '10' };

/** The part of the page from a section's heading to the next section's end. */
function section(page: string, id: string): string {
  const start = page.indexOf(`aria-labelledby="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  return page.slice(start, page.indexOf('</section>', start));
}

/** Rows of a section's table body (or of its n-th table) as the text of their cells. */
function tableRows(html: string, nth = 0): string[][] {
  const table = html.split('<tbody>')[nth + 1];
  expect(table).toBeDefined();
  return table
    .slice(0, table.indexOf('</tbody>'))
    .split('</tr>')
    .slice(0, -1)
    .map((row) =>
      row
        .split(/<\/t[dh]>/)
        .slice(0, -1)
        .map((cell) => visibleText(cell)),
    );
}

describe('console: delivery analytics page', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let empty: TestAccount;
  let browser: ConsoleBrowser;
  const overdue: Record<string, string> = {};

  beforeAll(async () => {
    // Wednesday 18 March 2026: the default period runs from Monday 29 December 2025 to today.
    t = await createTestApp({ clock: new ManualClock('2026-03-18T10:00:00Z') });
    acct = await t.account();
    other = await t.account();
    empty = await t.account();
    const db = t.context.repos.db;
    const mine = await accountIdOf(t, acct.accountUuid);
    const theirs = await accountIdOf(t, other.accountUuid);

    // dhl-main, week of 2 March: 13 first attempts (12 with a window, 10 of them on time), 9 delivered at once.
    await insertDay(
      db,
      mine,
      '2026-03-02',
      DHL_DE,
      { shipments: 10, accepted: 10, first_attempts: 9, first_attempt_successes: 5, delivered: 8, on_time: 6, promised: 8, exceptions: 1 },
      [
        [1, 'early', 1],
        [2, 'on_time', 5],
        [3, 'none', 1],
        [4, 'late', 2],
      ],
    );
    await insertDay(
      db,
      mine,
      '2026-03-03',
      DHL_FR,
      { shipments: 4, accepted: 4, first_attempts: 4, first_attempt_successes: 4, delivered: 4, on_time: 4, promised: 4 },
      [
        [2, 'early', 1],
        [3, 'on_time', 3],
      ],
    );
    // ups-eu, week of 9 March: 5 first attempts, all on time, 3 delivered at once.
    await insertDay(
      db,
      mine,
      '2026-03-10',
      UPS_FR,
      { shipments: 5, accepted: 5, first_attempts: 5, first_attempt_successes: 3, delivered: 5, on_time: 5, promised: 5 },
      [[1, 'on_time', 5]],
    );
    // Before the default period.
    await insertDay(
      db,
      mine,
      '2025-11-03',
      UPS_FR,
      { shipments: 40, accepted: 40, first_attempts: 40, first_attempt_successes: 20, delivered: 40, on_time: 10, promised: 40 },
      [[6, 'late', 30]],
    );
    await insertDay(
      db,
      theirs,
      '2026-03-04',
      THEIRS,
      { shipments: 77, accepted: 77, first_attempts: 77, first_attempt_successes: 70, delivered: 77, on_time: 70, promised: 77 },
      [[2, 'on_time', 77]],
    );

    // The exception queue: open, window over, no first attempt, not returned.
    overdue.ups = await insertFact(t, acct.token, mine, {
      shipmentId: 'LATE-UPS',
      lane: UPS_FR,
      day: '2026-03-02',
      promisedTo: '2026-03-05',
    });
    overdue.dhl = await insertFact(t, acct.token, mine, {
      shipmentId: 'LATE-DHL',
      lane: DHL_DE,
      day: '2026-03-06',
      promisedTo: '2026-03-10',
      lastScanAt: '2026-03-07T09:30:00.000Z',
    });
    await insertFact(t, acct.token, mine, {
      shipmentId: 'RETURNED',
      lane: DHL_DE,
      day: '2026-03-02',
      promisedTo: '2026-03-04',
      returned: true,
    });
    await insertFact(t, acct.token, mine, {
      shipmentId: 'ATTEMPTED',
      lane: DHL_DE,
      day: '2026-03-02',
      promisedTo: '2026-03-04',
      firstAttemptDate: '2026-03-06',
    });
    await insertFact(t, acct.token, mine, { shipmentId: 'NOT-YET-DUE', lane: DHL_DE, day: '2026-03-16', promisedTo: '2026-03-18' });
    const delivered = await insertFact(t, acct.token, mine, {
      shipmentId: 'CLOSED',
      lane: DHL_DE,
      day: '2026-03-02',
      promisedTo: '2026-03-04',
    });
    await db.updateTable('shipments').set({ status: 'delivered' }).where('shipment_uuid', '=', delivered).execute();
    await insertFact(t, other.token, theirs, { shipmentId: 'THEIR-LATE', lane: THEIRS, day: '2026-03-02', promisedTo: '2026-03-05' });

    browser = await signIn(t, acct);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('draws the three charts as inline SVG with their labels, and the same numbers in tables', async () => {
    const res = await browser.get('/console/analytics/');
    expect(res.statusCode, res.body).toBe(200);
    const page = res.body;
    expect(page).toContain('<a href="/console/analytics/" aria-current="page">Analytics</a>');
    // The default period: the last 12 weeks.
    expect(page).toContain('name="from" type="date" required value="2025-12-29"');
    expect(page).toContain('name="to" type="date" required value="2026-03-18"');

    const histogram = section(page, 'transit-times');
    expect(histogram).toMatch(
      /<svg[^>]* aria-description="Histogram of transit times[^"]*"[^>]* aria-label="Transit time per carrier"[^>]*class="analytics-chart"/,
    );
    expect(histogram).toContain('<title>dhl-main: 5 on time in 2 working days</title>');
    expect(histogram).toContain('<title>ups-eu: 5 on time in 1 working days</title>');
    expect(tableRows(histogram)).toEqual([
      ['dhl-main', '1', '1', '0', '0', '0', '1'],
      ['dhl-main', '2', '1', '5', '0', '0', '6'],
      ['dhl-main', '3', '0', '3', '0', '1', '4'],
      ['dhl-main', '4', '0', '0', '2', '0', '2'],
      ['ups-eu', '1', '0', '5', '0', '0', '5'],
    ]);

    const weekly = section(page, 'weekly-on-time');
    expect(weekly).toMatch(/<svg[^>]* aria-label="Weekly on-time rate per carrier"/);
    expect(weekly).toContain('<title>dhl-main, week of 2 Mar 2026: 83.3% on time (n = 12)</title>');
    expect(weekly).toContain('<title>ups-eu, week of 9 Mar 2026: 100% on time (n = 5)</title>');
    expect(weekly).toContain('<th scope="col" class="num">dhl-main</th><th scope="col" class="num">ups-eu</th>');
    expect(tableRows(weekly)).toEqual([
      ['2 Mar 2026', '83.3% n = 12', '–'],
      ['9 Mar 2026', '–', '100% n = 5'],
    ]);

    const firstAttempt = section(page, 'first-attempt');
    expect(firstAttempt).toMatch(/<svg[^>]* aria-label="First-attempt success rate per carrier"/);
    expect(firstAttempt).toContain('<title>dhl-main: 69.2% of 13 first attempts delivered</title>');
    expect(tableRows(firstAttempt)).toEqual([
      ['dhl-main', '13', '69.2%'],
      ['ups-eu', '5', '60%'],
    ]);

    // Carrier × destination: DE has more shipments (10) than FR (9), so it comes first; shaded by band classes.
    const destinations = section(page, 'by-destination');
    expect(destinations).toContain('<th scope="col" class="num">DE</th><th scope="col" class="num">FR</th>');
    expect(tableRows(destinations)).toEqual([
      ['dhl-main', '75% n = 8', '100% n = 4'],
      ['ups-eu', '–', '100% n = 5'],
    ]);
    expect(destinations).toContain('<td class="num rate-high"><span class="rate">100%</span> <span class="n">n = 4</span></td>');
    expect(destinations).toContain('<td class="num rate-low"><span class="rate">75%</span> <span class="n">n = 8</span></td>');

    // The exception queue: longest overdue first, each linking to the shipment's page.
    const queue = section(page, 'exceptions');
    const rows = tableRows(queue);
    expect(rows.map((row) => row[0])).toEqual(['LATE-UPS', 'LATE-DHL']);
    expect(rows[0].slice(2, 7)).toEqual(['ups-eu', 'express', 'FR', '2026-03-05', '13']);
    expect(rows[1].slice(2, 7)).toEqual(['dhl-main', 'standard', 'DE', '2026-03-10', '8']);
    expect(queue).toContain(`<a href="/console/shipments/${overdue.ups}/">LATE-UPS</a>`);
    expect(queue).toContain(`<a href="/console/shipments/${overdue.dhl}/">LATE-DHL</a>`);
    const opened = await browser.get(`/console/shipments/${overdue.ups}/`);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('LATE-UPS');
  });

  it('passes the console policy: no style element or attribute and no script anywhere in the page', async () => {
    for (const url of ['/console/analytics/', '/console/analytics/?carrier=ups-eu', '/console/analytics/?from=2025-01-01&to=2025-12-31']) {
      const res = await browser.get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-security-policy']).toContain("default-src 'none'; style-src 'self'; img-src 'self'");
      expect(res.body).not.toMatch(/\sstyle\s*=/i);
      expect(res.body).not.toMatch(/<style/i);
      expect(res.body).not.toMatch(/<script/i);
      expect(res.body).not.toMatch(/\son[a-z]+\s*=/i);
    }
  });

  it('applies the period, carrier and service filters', async () => {
    const ups = (await browser.get('/console/analytics/?carrier=ups-eu')).body;
    expect(ups).toContain('<option value="ups-eu" selected>ups-eu</option>');
    expect(ups).toContain('<option value="dhl-main">dhl-main</option>'); // still a choice
    const afterForm = ups.slice(ups.indexOf('</form>', ups.indexOf('role="search"')));
    expect(afterForm).not.toContain('dhl-main');
    expect(tableRows(section(ups, 'first-attempt'))).toEqual([['ups-eu', '5', '60%']]);
    expect(tableRows(section(ups, 'exceptions')).map((row) => row[0])).toEqual(['LATE-UPS']);

    const express = (await browser.get('/console/analytics/?service=Express')).body;
    expect(express).toContain('value="express"');
    expect(tableRows(section(express, 'first-attempt'))).toEqual([['ups-eu', '5', '60%']]);
    expect(tableRows(section(express, 'exceptions')).map((row) => row[0])).toEqual(['LATE-UPS']);

    // A longer period takes in November's week too.
    const longer = (await browser.get('/console/analytics/?from=2025-11-01&to=2026-03-18')).body;
    expect(tableRows(section(longer, 'first-attempt'))).toEqual([
      ['dhl-main', '13', '69.2%'],
      ['ups-eu', '45', '51.1%'],
    ]);
    expect(longer).toContain('<title>ups-eu, week of 3 Nov 2025: 25% on time (n = 30)</title>');

    // A period with nothing in it says so, and the queue stays (it is not bound to the period).
    const quiet = (await browser.get('/console/analytics/?from=2025-01-01&to=2025-06-30')).body;
    expect(visibleText(quiet)).toContain('No shipments were accepted in this period with these filters.');
    expect(quiet).not.toContain('<svg aria');
    expect(tableRows(section(quiet, 'exceptions')).map((row) => row[0])).toEqual(['LATE-UPS', 'LATE-DHL']);
  });

  it('refuses a period that is not one, on the form', async () => {
    for (const query of ['from=2026-02-30', 'from=2026-03-10&to=2026-03-01', 'from=2024-01-01&to=2026-03-01']) {
      const res = await browser.get(`/console/analytics/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.body).toContain('Check the filters:');
      expect(res.body).not.toContain('<svg aria');
    }
  });

  it('never shows another account’s data', async () => {
    const page = (await browser.get('/console/analytics/?from=2025-11-01&to=2026-03-18')).body;
    expect(page).not.toContain('gls-theirs');
    expect(page).not.toContain('THEIR-LATE');
    expect(page).not.toContain('>AT<');
    expect(page).not.toContain('n = 77');
    // Their own page has their numbers only.
    const theirs = await signIn(t, other);
    const their = (await theirs.get('/console/analytics/')).body;
    expect(tableRows(section(their, 'first-attempt'))).toEqual([['gls-theirs', '77', '90.9%']]);
    expect(tableRows(section(their, 'exceptions')).map((row) => row[0])).toEqual(['THEIR-LATE']);
    expect(their).not.toContain('dhl-main');
  });

  it('tells an account without delivery data how to make some', async () => {
    const fresh = await signIn(t, empty);
    const res = await fresh.get('/console/analytics/');
    expect(res.statusCode).toBe(200);
    const text = visibleText(res.body);
    expect(text).toContain('No delivery data yet');
    expect(text).toContain('waybill simulate history --account');
    expect(res.body).not.toContain('<svg');
  });
});

describe('console: chart styles', () => {
  it('has in the console stylesheet every rule Plot would put in its own <style> (which the policy blocks)', () => {
    const { document } = parseHTML('<!doctype html><html><body></body></html>');
    const svg = Plot.plot({
      document: document as unknown as Document,
      className: CHART_CLASS,
      marks: [Plot.barY([{ x: 'a', y: 1 }], { x: 'x', y: 'y' })],
    }) as unknown as Element;
    const injected = Array.from(svg.querySelectorAll('style')).map((style) => style.textContent ?? '');
    expect(injected.length).toBe(1);
    const compact = (css: string) => css.replace(/\s*([{}:;,])\s*/g, '$1').replace(/;}/g, '}');
    const rules = compact(injected[0]).split('}').filter(Boolean);
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(compact(CONSOLE_CSS), rule).toContain(`${rule}}`);
  });
});
