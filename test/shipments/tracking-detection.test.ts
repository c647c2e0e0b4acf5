import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * Numbers computed for these tests (test/carriers/detect.test.ts shows the sums):
 * - UPS 1Z, check digit 0; the same with 1 is mistyped.
 * - 12 digits passing FedEx Express, DHL Paket and GLS checks at once.
 * - UPU S10 from Germany, and a bare SSCC (shared formats).
 */
const UPS = '1Z4F6W820312345670';
const UPS_MISTYPED = '1Z4F6W820312345671';
const TWELVE_DIGITS = '201298452277';
const S10_DE = 'RR123456785DE';
const SSCC = '00123456789012345675';

/**
 * Carrier configurations written as rows: the real carriers' adapters (and the settings they require) are not
 * what these tests are about, and detection needs only the carrier_id.
 */
async function configure(
  t: TestApp,
  acct: TestAccount,
  configs: Array<[reference: string, carrierId: string, fallback?: 'fallback']>,
): Promise<number> {
  const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
  if (!account) throw new Error('no account');
  const at = new Date().toISOString();
  for (const [carrier_reference, carrier_id, fallback] of configs) {
    await t.context.repos.carrierConfigs.insert({
      account_id: account.id,
      carrier_reference,
      carrier_id,
      booking_outbound: 0,
      booking_return: 0,
      settings_sealed: null,
      push_token_hash: null,
      fallback: fallback ? 1 : 0,
      created_at: at,
      updated_at: at,
    });
  }
  return account.id;
}

describe('shipments: the carrier found from the tracking number', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** A new account with these configurations (and a sandbox one), and how to read its shipments. */
  async function accountWith(configs: Array<[string, string, 'fallback'?]>) {
    const acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    const accountId = await configure(t, acct, configs);
    const call = t.as(acct);
    return {
      call,
      create: (body: Record<string, unknown>) => call('POST', '/v5/shipment/', body),
      details: async (shipmentId: string) =>
        (await call('GET', '/v5/shipment/details/', undefined, { shipment_id: shipmentId })).json().data,
      row: (shipmentId: string) => t.context.repos.shipments.findByShipmentId(accountId, shipmentId),
    };
  }

  it('tracks with the one configured carrier that matches', async () => {
    const a = await accountWith([
      ['ups-main', 'upsglb'],
      ['dhl-de', 'dhlglb'],
    ]);
    const res = await a.create({ shipment_id: 'auto-ups', tracking_number: '1z 4f6w 8203 1234 5670' });
    expect(res.statusCode, res.body).toBe(200);
    const data = await a.details('auto-ups');
    expect(data.carrier_reference).toBe('ups-main');
    expect(data.additional_info).toEqual({});
    const row = await a.row('auto-ups');
    expect(row?.carrier_id).toBe('upsglb');
    expect(row?.next_poll_at).not.toBeNull();
    expect(row?.tracking_started_at).not.toBeNull();
  });

  it('leaves the shipment untracked when two configured carriers match, and says why beside the merchant’s fields', async () => {
    const a = await accountWith([
      ['fedex-us', 'fdxglb'],
      ['dhl-de', 'dhlglb'],
    ]);
    const res = await a.create({ shipment_id: 'two-match', tracking_number: TWELVE_DIGITS, additional_info: { warehouse: 'B2' } });
    expect(res.statusCode, res.body).toBe(200);
    const data = await a.details('two-match');
    expect(data.carrier_reference).toBeNull();
    expect(data.carrier).toBeNull();
    expect(data.additional_info).toEqual({
      warehouse: 'B2',
      tracking_detection: 'ambiguous',
      tracking_detection_candidates: 'fdxglb:medium,dhlglb:medium,glsglb:medium',
      tracking_detection_note: expect.stringContaining('(fedex-us, dhl-de)'),
    });
    expect((await a.row('two-match'))?.next_poll_at).toBeNull();
  });

  it('routes an S10 number to the post its country suffix names when the account tracks that post, never an SSCC', async () => {
    const a = await accountWith([['dhl-de', 'dhlglb']]);
    expect((await a.create({ shipment_id: 's10-de', tracking_number: S10_DE })).statusCode).toBe(200);
    expect((await a.details('s10-de')).carrier_reference).toBe('dhl-de');
    expect((await a.create({ shipment_id: 'sscc', tracking_number: SSCC })).statusCode).toBe(200);
    const data = await a.details('sscc');
    expect(data.carrier_reference).toBeNull();
    expect(data.additional_info).toMatchObject({
      tracking_detection: 'shared_format',
      tracking_detection_candidates: 'dhlglb:low,fdxglb:low',
    });
    expect((await a.row('sscc'))?.next_poll_at).toBeNull();
    // Without the post, an S10 number is a shared format like any other.
    const b = await accountWith([['ups-main', 'upsglb']]);
    await b.create({ shipment_id: 's10-de', tracking_number: S10_DE });
    expect((await b.details('s10-de')).additional_info).toMatchObject({ tracking_detection: 'shared_format' });
  });

  it('tracks through the account’s fallback every number no direct configuration claims', async () => {
    const a = await accountWith([
      ['dhl-de', 'dhlglb'],
      ['everything', 'sandbx', 'fallback'],
    ]);
    // Claimed directly: the post of an S10 number, and a DHL Express number.
    await a.create({ shipment_id: 'fb-s10-de', tracking_number: S10_DE });
    expect((await a.details('fb-s10-de')).carrier_reference).toBe('dhl-de');
    // Claimed by no configuration: an unconfigured carrier's, a shared format's, an unknown format's, a mistyped one.
    for (const [shipmentId, number] of [
      ['fb-ups', UPS],
      ['fb-sscc', SSCC],
      ['fb-s10-gb', 'RR123456785GB'],
      ['fb-unknown', 'XY-99-1234-ZZ'],
      ['fb-mistyped', UPS_MISTYPED],
    ]) {
      const res = await a.create({ shipment_id: shipmentId, tracking_number: number });
      expect(res.statusCode, res.body).toBe(200);
      const data = await a.details(shipmentId);
      expect(data.carrier_reference, shipmentId).toBe('everything');
      expect(data.additional_info, shipmentId).toEqual({});
      expect((await a.row(shipmentId))?.next_poll_at, shipmentId).not.toBeNull();
    }
    // The detect endpoint names the fallback last, as a candidate for any number.
    const detected = await a.call('GET', '/v5/carriers/detect/', undefined, { tracking_number: UPS });
    expect(detected.json().data.candidates).toEqual([
      expect.objectContaining({ carrier_id: 'upsglb', configured: false }),
      {
        carrier_id: 'sandbx',
        confidence: 'low',
        format: 'fallback',
        check_digit: 'none',
        configured: true,
        carrier_references: ['everything'],
      },
    ]);
  });

  it('explains a number of a carrier the account has not configured, a mistyped one and an unknown one', async () => {
    const a = await accountWith([['dhl-de', 'dhlglb']]);
    await a.create({ shipment_id: 'ups-unconfigured', tracking_number: UPS });
    expect((await a.details('ups-unconfigured')).additional_info).toMatchObject({
      tracking_detection: 'not_configured',
      tracking_detection_candidates: 'upsglb:high',
    });
    await a.create({ shipment_id: 'ups-mistyped', tracking_number: UPS_MISTYPED });
    const mistyped = (await a.details('ups-mistyped')).additional_info;
    expect(mistyped.tracking_detection).toBe('check_digit_mismatch');
    expect(mistyped.tracking_detection_note).toContain('UPS 1Z');
    expect(mistyped).not.toHaveProperty('tracking_detection_candidates');
    await a.create({ shipment_id: 'unknown', tracking_number: 'WB4000123' });
    expect((await a.details('unknown')).additional_info).toMatchObject({ tracking_detection: 'unknown_format' });
    // Without a tracking number there is nothing to explain.
    await a.create({ shipment_id: 'no-number' });
    expect((await a.details('no-number')).additional_info).toEqual({});
  });

  it('keeps a merchant key of the same name as sent', async () => {
    const a = await accountWith([]);
    await a.create({ shipment_id: 'theirs', tracking_number: S10_DE, additional_info: { tracking_detection: 'mine' } });
    expect((await a.details('theirs')).additional_info).toMatchObject({
      tracking_detection: 'mine',
      tracking_detection_candidates: 'dhlglb:low',
    });
  });

  it('refuses a number that fails its carrier’s check digit with 4030 on tracking_number, storing nothing', async () => {
    const a = await accountWith([['ups-main', 'upsglb']]);
    const res = await a.create({ shipment_id: 'bad-check', tracking_number: UPS_MISTYPED, carrier_reference: 'ups-main' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.api_response).toBe('4030');
    expect(Object.keys(body.errors)).toEqual(['tracking_number']);
    expect(body.errors.tracking_number[0]).toContain('check digit');
    expect(await a.row('bad-check')).toBeUndefined();
    // The same number with the right check digit, a number in a format not known for UPS, and the sandbox: accepted.
    expect((await a.create({ shipment_id: 'good-check', tracking_number: UPS, carrier_reference: 'ups-main' })).statusCode).toBe(200);
    expect((await a.create({ shipment_id: 'other-format', tracking_number: 'ABC123', carrier_reference: 'ups-main' })).statusCode).toBe(
      200,
    );
    expect((await a.create({ shipment_id: 'sandbox', tracking_number: UPS_MISTYPED, carrier_reference: 'sb' })).statusCode).toBe(200);
  });

  it('decides again when an update sets the number or the carrier', async () => {
    const a = await accountWith([
      ['ups-main', 'upsglb'],
      ['fedex-us', 'fdxglb'],
      ['dhl-de', 'dhlglb'],
    ]);
    await a.create({ shipment_id: 'upd', tracking_number: TWELVE_DIGITS, additional_info: { warehouse: 'B2' } });
    expect((await a.details('upd')).additional_info.tracking_detection).toBe('ambiguous');

    // Other fields, even a new additional_info, leave the explanation as it is.
    let res = await a.call('POST', '/v5/shipment/update/', { note: 'hello', additional_info: { shelf: 4 } }, { shipment_id: 'upd' });
    expect(res.statusCode, res.body).toBe(200);
    expect((await a.details('upd')).additional_info).toMatchObject({ shelf: 4, tracking_detection: 'ambiguous' });
    expect((await a.details('upd')).additional_info).not.toHaveProperty('warehouse');

    // Choosing the carrier tracks it and drops the explanation.
    res = await a.call('POST', '/v5/shipment/update/', { carrier_reference: 'fedex-us' }, { shipment_id: 'upd' });
    expect(res.statusCode, res.body).toBe(200);
    let data = await a.details('upd');
    expect(data.carrier_reference).toBe('fedex-us');
    expect(data.additional_info).toEqual({ shelf: 4 });

    // A mistyped UPS number for the configured UPS carrier is refused, and the shipment stays as it was.
    res = await a.call(
      'POST',
      '/v5/shipment/update/',
      { tracking_number: UPS_MISTYPED, carrier_reference: 'ups-main' },
      { shipment_id: 'upd' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toHaveProperty('tracking_number');
    expect((await a.details('upd')).carrier_reference).toBe('fedex-us');

    // Clearing the carrier with a UPS number routes it to UPS.
    res = await a.call('POST', '/v5/shipment/update/', { tracking_number: UPS, carrier_reference: null }, { shipment_id: 'upd' });
    expect(res.statusCode, res.body).toBe(200);
    data = await a.details('upd');
    expect(data.carrier_reference).toBe('ups-main');
    expect((await a.row('upd'))?.carrier_id).toBe('upsglb');
  });

  it('applies the same rules to imported rows', async () => {
    const acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    await configure(t, acct, [['ups-main', 'upsglb']]);
    const csv = [
      'shipment_id,tracking_number,carrier_reference',
      `imp-auto,${UPS},`,
      `imp-bad,${UPS_MISTYPED},ups-main`,
      `imp-s10,${S10_DE},`,
    ].join('\r\n');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/import/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/csv' },
      payload: csv,
    });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ rows: 3, created: 2 });
    expect(data.errors).toHaveLength(1);
    expect(JSON.stringify(data.errors[0])).toContain('tracking_number');
    const details = async (shipmentId: string) =>
      (await t.as(acct)('GET', '/v5/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;
    expect((await details('imp-auto')).carrier_reference).toBe('ups-main');
    expect((await details('imp-s10')).additional_info).toMatchObject({ tracking_detection: 'shared_format' });
  });
});
