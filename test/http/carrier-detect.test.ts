import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('GET /v5/carriers/detect/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    // Rows rather than the admin API: detection needs only the carrier_id, not a real carrier's settings.
    const account = await t.context.repos.accounts.findByUuid(acct.accountUuid);
    const at = new Date().toISOString();
    for (const [carrier_reference, carrier_id] of [
      ['ups-main', 'upsglb'],
      ['ups-returns', 'upsglb'],
      ['dhl-de', 'dhlglb'],
    ]) {
      await t.context.repos.carrierConfigs.insert({
        account_id: account?.id as number,
        carrier_reference,
        carrier_id,
        booking_outbound: 0,
        booking_return: 0,
        settings_sealed: null,
        push_token_hash: null,
        created_at: at,
        updated_at: at,
      });
    }
  });
  afterAll(() => t.close());

  const detect = (trackingNumber?: string, token = acct.token) =>
    t.call(token, 'GET', '/v5/carriers/detect/', undefined, trackingNumber === undefined ? {} : { tracking_number: trackingNumber });

  it('answers the candidates with their confidence and the account’s configurations of each', async () => {
    const res = await detect('1z 4f6w-8203-1234-5670');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      api_response: '200',
      data: {
        tracking_number: '1Z4F6W820312345670',
        candidates: [
          {
            carrier_id: 'upsglb',
            confidence: 'high',
            format: 'ups_1z',
            check_digit: 'valid',
            configured: true,
            carrier_references: ['ups-main', 'ups-returns'],
          },
        ],
      },
    });
  });

  it('lists shared formats as low, configured or not', async () => {
    const res = await detect('00123456789012345675');
    expect(res.json().data.candidates).toEqual([
      { carrier_id: 'dhlglb', confidence: 'low', format: 'sscc', check_digit: 'valid', configured: true, carrier_references: ['dhl-de'] },
      { carrier_id: 'fdxglb', confidence: 'low', format: 'sscc', check_digit: 'valid', configured: false, carrier_references: [] },
    ]);
  });

  it('answers no candidates for a number no format fits or whose check digit is wrong', async () => {
    for (const number of ['WB4000123', '1Z4F6W820312345671']) {
      const res = await detect(number);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ tracking_number: number, candidates: [] });
    }
  });

  it('refuses a missing or empty tracking_number with 4030 on tracking_number', async () => {
    for (const number of [undefined, '', ' - ']) {
      const res = await detect(number);
      expect(res.statusCode, String(number)).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030', errors: { tracking_number: [expect.any(String)] } });
    }
  });

  it("needs a bearer token, and shows only the caller's configurations", async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v5/carriers/detect/?tracking_number=1Z4F6W820312345670' })).statusCode).toBe(403);
    const other = await t.account();
    const res = await detect('1Z4F6W820312345670', other.token);
    expect(res.json().data.candidates[0]).toMatchObject({ carrier_id: 'upsglb', configured: false, carrier_references: [] });
  });
});
