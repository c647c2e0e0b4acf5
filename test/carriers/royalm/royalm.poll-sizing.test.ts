import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s10CheckDigit } from '../../../src/carriers/detect/s10.js';
import { CarrierRegistry } from '../../../src/carriers/registry.js';
import { summaryEntryOf } from '../../../src/carriers/royalm/royalm.answers.js';
import { RoyalMailCarrier } from '../../../src/carriers/royalm/royalm.carrier.js';
import { TrackingPoller } from '../../../src/jobs/tracking-poller.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { royalmFixture } from './fixtures.js';
import { askedIn, EVENTS_PATH, SETTINGS, SUMMARY_PATH } from './royalm-server.js';

/** Ten S10 numbers of Royal Mail's, with their check digits. */
const NUMBERS = Array.from({ length: 10 }, (_, i) => {
  const serial = String(71_000_000 + i);
  return `QA${serial}${s10CheckDigit(serial)}GB`;
});

/** The international item's history, told of `number`. */
function historyOf(number: string): Record<string, unknown> {
  return JSON.parse(JSON.stringify(royalmFixture('events-international')).replaceAll('QA900000067GB', number));
}

/**
 * The poller and Royal Mail's adapter over a local Royal Mail at two calls a second, where every number polled
 * for the first time needs its history: a round sized at 30 numbers a call claims more than the rate serves
 * before the poll's wait runs out; once the adapter has reported its histories, a round claims what it can send.
 */
describe('the poller claims for Royal Mail what its summaries and histories can serve in a round', () => {
  let t: TestApp;
  let server: CarrierServer;
  let poller: TrackingPoller;

  beforeAll(async () => {
    server = await new CarrierServer().start();
    server.on('GET', SUMMARY_PATH, (r) => ({ body: { mailPieces: askedIn(r).map((n) => summaryEntryOf(n, historyOf(n))) } }));
    server.on('GET', EVENTS_PATH, (r) => ({ body: historyOf(decodeURIComponent(r.path.split('/')[3] ?? '')) }));
    t = await createTestApp();
    const adapter = new RoyalMailCarrier(localToolkit('royalm', server.url, {}, () => t.clock.now().getTime()));
    // A round claims what a second holds (two calls); a call waits at most 1.2 s for its turn.
    poller = new TrackingPoller(
      t.context.repos,
      new CarrierRegistry([adapter]),
      t.context.carrierConfigs,
      t.context.tracking,
      t.clock,
      t.context.log,
      { roundMs: 1_000, limitWaitMs: 1_200, sweepMs: 3_600_000 },
    );
    const account = await t.account({ carriers: [{ carrier_reference: 'rm', carrier_id: 'royalm', settings: SETTINGS }] });
    for (const [i, number] of NUMBERS.entries()) {
      const res = await t.as(account)('POST', '/v5/shipment/', {
        shipment_id: `rm-${i}`,
        tracking_number: number,
        carrier_reference: 'rm',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const polled = async () =>
    (
      await t.context.database.db.selectFrom('shipments').select('tracking_fingerprint').where('shipment_id', 'like', 'rm-%').execute()
    ).filter((r) => r.tracking_fingerprint !== null).length;

  it('first claims as if no history were needed, and what the wait does not reach is put back', async () => {
    expect(await poller.runOnce()).toBe(10);
    // The summary, then histories 530 ms apart until the wait's 1.2 s: the other numbers are held back, unasked.
    expect(server.to(SUMMARY_PATH)).toHaveLength(1);
    expect(server.to(EVENTS_PATH)).toHaveLength(2);
    expect(await polled()).toBe(2);
  });

  it('then claims only what a summary and the histories its numbers need can send in the round', async () => {
    // Past the minute the held numbers wait (and before the polled ones are due again).
    t.clock.advance(120_000);
    // Two calls in the round, each number needing a history: one number (1/30 + 1 call each).
    expect(await poller.runOnce()).toBe(1);
    expect(server.to(SUMMARY_PATH)).toHaveLength(2);
    expect(server.to(EVENTS_PATH)).toHaveLength(3);
    expect(await polled()).toBe(3);
  });
});
