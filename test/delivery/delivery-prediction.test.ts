import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Monday 23 November 2026, 10:00 in Berlin. */
const MONDAY = '2026-11-23';

const lane = {
  sender_address: { country_code: 'DE', postal_code: '80331', city: 'München' },
  recipient_address: { country_code: 'DE', postal_code: '10115', city: 'Berlin' },
};

async function shipment(t: TestApp, acct: TestAccount, id: string, number: string, extra: Record<string, unknown> = {}) {
  const res = await t.call(acct.token, 'POST', '/v5/shipment/', {
    shipment_id: id,
    tracking_number: number,
    carrier_reference: 'sandbox',
    ...lane,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function events(t: TestApp, acct: TestAccount, id: string, list: Array<{ event_key: string; time: string }>) {
  const res = await t.call(acct.token, 'POST', '/v5/events/create/', {
    shipment_id: id,
    events: list.map((e) => ({ event: e.event_key, ...e, timezone: 'Europe/Berlin' })),
  });
  expect(res.statusCode, res.body).toBe(200);
}

async function details(t: TestApp, acct: TestAccount, id: string, version = '/v5-2-0') {
  const res = await t.call(acct.token, 'GET', `${version}/shipment/details/`, undefined, { shipment_id: id });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** Counts what tracking changes queued, as a worker's learning task does every few seconds. */
const learned = (t: TestApp) => t.context.deliveryLearning.drain();

/** `count` shipments of the lane accepted Monday and delivered Tuesday (one working day), counted. */
async function history(t: TestApp, acct: TestAccount, prefix: string, count: number) {
  for (let i = 0; i < count; i++) {
    const id = `${prefix}-${i}`;
    await shipment(t, acct, id, `WB7${String(i).padStart(6, '0')}`);
    await events(t, acct, id, [
      { event_key: 'picked_up', time: '2026-11-16T18:00:00' },
      { event_key: 'delivered', time: '2026-11-17T11:00:00' },
    ]);
  }
  await learned(t);
}

describe('predicted delivery windows', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date(`${MONDAY}T09:00:00Z`)) });
    acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterAll(() => t.close());

  it('issues none before acceptance, then a window at acceptance from the carrier default, shown as expected_delivery', async () => {
    await shipment(t, acct, 'p-1', 'WB2000101');
    await events(t, acct, 'p-1', [{ event_key: 'label_created', time: `${MONDAY}T08:00:00` }]);
    const before = await details(t, acct, 'p-1');
    expect(before.delivery_prediction).toBeNull();
    expect(before.expected_delivery).toEqual({ from: null, to: null });

    await events(t, acct, 'p-1', [{ event_key: 'picked_up', time: `${MONDAY}T09:30:00` }]);
    const after = await details(t, acct, 'p-1');
    const p = after.delivery_prediction;
    expect(p).toMatchObject({ source: 'waybill', confidence: 'low', basis: { level: 'carrier_default', shipments: 0 }, carrier: null });
    expect(p.from <= p.likely && p.likely <= p.to).toBe(true);
    expect(p.from > MONDAY).toBe(true);
    // The sandbox carrier delivers Monday to Friday: no window ends on a weekend.
    for (const date of [p.from, p.likely, p.to]) expect([0, 6]).not.toContain(new Date(`${date}T00:00:00Z`).getUTCDay());
    expect(p.original).toEqual({ from: p.from, to: p.to });
    expect(after.expected_delivery).toEqual({ from: p.from, to: p.to });
    // v5 has no delivery_prediction, but shows the window as expected_delivery.
    const v5 = await details(t, acct, 'p-1', '/v5');
    expect(v5).not.toHaveProperty('delivery_prediction');
    expect(v5.expected_delivery).toEqual({ from: p.from, to: p.to });
  });

  it("shows the merchant's own window over the prediction, and keeps predicting beside it", async () => {
    const update = await t.call(
      acct.token,
      'POST',
      '/v5-2-0/shipment/update/',
      { expected_delivery: { from: '2026-11-27', to: '2026-11-28' } },
      { shipment_id: 'p-1' },
    );
    expect(update.statusCode, update.body).toBe(200);
    const data = await details(t, acct, 'p-1');
    expect(data.expected_delivery).toEqual({ from: '2026-11-27', to: '2026-11-28' });
    expect(data.delivery_prediction.source).toBe('waybill');
  });

  it('collapses the window to the day when out for delivery, keeping the original', async () => {
    const original = (await details(t, acct, 'p-1')).delivery_prediction.original;
    await events(t, acct, 'p-1', [{ event_key: 'out_for_delivery', time: '2026-11-24T07:00:00' }]);
    const p = (await details(t, acct, 'p-1')).delivery_prediction;
    expect(p).toMatchObject({ from: '2026-11-24', likely: '2026-11-24', to: '2026-11-24', basis: { level: 'out_for_delivery' } });
    expect(p.original).toEqual(original);
  });

  it('learns from first attempts: a lane with enough history predicts from its own cell with high confidence', async () => {
    await history(t, acct, 'h', 70);
    await shipment(t, acct, 'p-2', 'WB2000102');
    await events(t, acct, 'p-2', [{ event_key: 'picked_up', time: `${MONDAY}T09:30:00` }]);
    const p = (await details(t, acct, 'p-2')).delivery_prediction;
    // p-1 has not been attempted yet: only the history counts (a week old, it weighs 70 × 0.92 ≥ 59).
    expect(p).toMatchObject({ confidence: 'high', basis: { level: 'lane', shipments: 70 } });
    // Every one of them took one working day: the likely date is Tuesday.
    expect(p.likely).toBe('2026-11-24');
    expect(p.from).toBe('2026-11-24');
  });

  it("shows the window on the tracking page in the consumer's language and gives it to message templates", async () => {
    const data = await details(t, acct, 'p-2');
    const page = await t.app.inject({ method: 'GET', url: `/t/${data.tracking_page_reference}?lang=de` });
    expect(page.statusCode).toBe(200);
    const shown = page.body.match(/data-expected-delivery>(.*?)<\/dd>/s)?.[1] ?? '';
    expect(shown).toContain(`datetime="${data.delivery_prediction.to}"`);
    expect(shown).toContain('Di., 24.');
    const preview = await t.call(acct.token, 'POST', '/v5/notification/templates/in_transit/email/fr/preview/', {
      shipment_uuid: data.shipment_uuid,
      subject: 'Livraison',
      body: 'Prévue : {{ shipment.predicted_delivery }} ; probable : {{ shipment.predicted_delivery_likely }}',
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(JSON.stringify(preview.json().data)).toMatch(/Prévue : \S+.*probable : mardi 24 novembre/);
  });

  it('does not learn from parcels returned to sender or lost', async () => {
    const count = async () => {
      await learned(t);
      return Number(
        (
          await t.context.database.db
            .selectFrom('transit_histograms')
            .select((eb) => eb.fn.sum<number>('shipments').as('n'))
            .where('level', '=', 4)
            .executeTakeFirstOrThrow()
        ).n,
      );
    };
    const before = await count();
    await shipment(t, acct, 'p-rts', 'WB2000103');
    await events(t, acct, 'p-rts', [
      { event_key: 'picked_up', time: '2026-11-16T18:00:00' },
      { event_key: 'delivery_attempt_failed', time: '2026-11-17T11:00:00' },
      { event_key: 'returned_to_sender', time: '2026-11-19T11:00:00' },
    ]);
    await shipment(t, acct, 'p-late-rts', 'WB2000104');
    await events(t, acct, 'p-late-rts', [
      { event_key: 'picked_up', time: '2026-11-16T18:00:00' },
      { event_key: 'delivery_attempt_failed', time: '2026-11-17T11:00:00' },
    ]);
    expect(await count()).toBe(before + 1);
    // Sent back after its attempt was counted: taken out again.
    await events(t, acct, 'p-late-rts', [{ event_key: 'returned_to_sender', time: '2026-11-19T12:00:00' }]);
    expect(await count()).toBe(before);
  });

  it('pools history over the instance: another account benefits', async () => {
    const other = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    await shipment(t, other, 'o-1', 'WB2000201');
    await events(t, other, 'o-1', [{ event_key: 'picked_up', time: `${MONDAY}T09:30:00` }]);
    expect((await details(t, other, 'o-1')).delivery_prediction).toMatchObject({ confidence: 'high', basis: { level: 'lane' } });
  });

  it("issues the window with a carrier's answer, written in the row with the answer's events", async () => {
    const polled = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    await shipment(t, polled, 'c-1', 'WB2000301');
    expect((await details(t, polled, 'c-1')).delivery_prediction).toBeNull();
    await t.context.worker.runOnce();
    const data = await details(t, polled, 'c-1');
    expect(data.current_phase.key).toBe('in_transit');
    const p = data.delivery_prediction;
    expect(p).toMatchObject({ source: 'waybill', issued_at: `${MONDAY}T09:00:00.000Z`, original: { from: p.from, to: p.to } });
    // The carrier's own window came with the same answer: shown as expected_delivery, and seen by the prediction.
    expect(p.carrier).toEqual(data.expected_delivery);
    expect(p.carrier.from).toEqual(expect.any(String));
    // In the row itself, not only in this process's rendering: another process reads the same.
    const row = await t.context.database.db
      .selectFrom('shipments')
      .select('body')
      .where('shipment_id', '=', 'c-1')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.body).delivery_prediction).toEqual(p);
  });
});

describe('WAYBILL_PREDICTION_SCOPE=account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date(`${MONDAY}T09:00:00Z`)), env: { WAYBILL_PREDICTION_SCOPE: 'account' } });
  });
  afterAll(() => t.close());

  it("keeps each account's history to itself", async () => {
    const first = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    const second = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    await history(t, first, 's', 70);
    for (const acct of [first, second]) {
      await shipment(t, acct, 'x-1', 'WB2000301');
      await events(t, acct, 'x-1', [{ event_key: 'picked_up', time: `${MONDAY}T09:30:00` }]);
    }
    expect((await details(t, first, 'x-1')).delivery_prediction.confidence).toBe('high');
    expect((await details(t, second, 'x-1')).delivery_prediction).toMatchObject({ confidence: 'low', basis: { level: 'carrier_default' } });
  });
});

describe('a first window issued days after acceptance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(new Date('2026-11-26T09:00:00Z')) });
  });
  afterAll(() => t.close());

  it('keeps the window of acceptance as the original and shows one that counts the working days gone by', async () => {
    const acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
    await shipment(t, acct, 'late-1', 'WB2000401');
    // Accepted Monday, first heard of on Thursday.
    await events(t, acct, 'late-1', [{ event_key: 'picked_up', time: `${MONDAY}T09:30:00` }]);
    const p = (await details(t, acct, 'late-1')).delivery_prediction;
    expect(p.original.from).toBe('2026-11-24');
    expect(p.from >= '2026-11-26').toBe(true);
    expect(p.original).not.toEqual({ from: p.from, to: p.to });
  });
});
