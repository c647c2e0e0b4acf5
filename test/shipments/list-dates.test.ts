import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('GET /v5/shipment/list/: dates as clients build them', () => {
  let t: TestApp;
  let acct: TestAccount;
  const clock = new ManualClock(new Date('2027-01-04T12:00:00Z'));
  beforeAll(async () => {
    t = await createTestApp({ clock });
    acct = await t.account();
    for (const [id, at] of [
      ['D-4', '2027-01-04T12:00:00Z'],
      ['D-5', '2027-01-05T09:05:00Z'],
      ['D-6', '2027-01-06T12:00:00Z'],
    ]) {
      clock.set(new Date(at));
      expect((await t.as(acct)('POST', '/v5/shipment/', { shipment_id: id })).statusCode).toBe(200);
    }
  });
  afterAll(() => t.close());

  const ids = async (query: Record<string, string>) => {
    const res = await t.as(acct)('GET', '/v5/shipment/list/', undefined, query);
    if (res.statusCode === 404) return [];
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.map((s: { shipment_id: string }) => s.shipment_id);
  };

  it.each([
    [{ created_date_from: '9999-12-31T23:59:59+14:00' }, []],
    [{ created_date_to: '9999-12-31T23:59:59Z' }, ['D-6', 'D-5', 'D-4']],
    [{ created_date_from: '0000-01-01T00:00:00Z', created_date_to: '2027-1-4T12:00' }, ['D-4']],
    [{ created_date_from: '2027-1-5' }, ['D-6', 'D-5']],
    [{ created_date_to: '2027-1-5' }, ['D-5', 'D-4']],
    [{ created_date_from: '2027-1-5T9:5:0' }, ['D-6', 'D-5']],
    [{ created_date_from: '2027-1-5T9:6' }, ['D-6']],
    [{ created_date_from: '2027-1-5 09:05:00', created_date_to: '2027-1-5 9:05:00.000' }, ['D-5']],
    [{ updated_date_to: '2027-01-5T09:05:00Z' }, ['D-5', 'D-4']],
    // An unencoded `+` in a query string arrives as a space.
    [{ created_date_from: '2027-1-5T10:05:00 01:00' }, ['D-6', 'D-5']],
    [{ created_date_from: '2027-01-05T10:05:00+01:00' }, ['D-6', 'D-5']],
  ])('reads %j without zero padding', async (query, expected) => {
    expect(await ids(query)).toEqual(expected);
  });

  it.each([
    ['created_date_from', '2027-13-5'],
    ['created_date_to', '2027-2-30'],
    ['updated_date_from', '5-1-2027'],
    ['updated_date_to', '2027-1-5T25:00'],
    ['created_date_from', '2027-1-5x'],
    ['created_date_from', '2027-1-5T9'],
    ['created_date_to', '27-1-5'],
    ['created_date_from', '2027-001-5'],
    // Past 9999 or before 0000 in UTC: such a time has no four-digit UTC year to compare with the stored ones.
    ['created_date_from', '9999-12-31T23:59:59-14:00'],
    ['created_date_to', '0000-01-01T00:00:00+14:00'],
  ])('refuses %s=%s with 4030 naming the parameter', async (field, value) => {
    const res = await t.as(acct)('GET', '/v5/shipment/list/', undefined, { [field]: value });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      api_response: '4030',
      message: 'validation_error',
      errors: { [field]: ['Enter an ISO 8601 date or date-time.'] },
    });
  });
});
