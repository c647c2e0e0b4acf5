import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryDailyTable, DeliveryDailyTransitsTable } from '../../src/db/schema.js';
import { analyticsLaneKey, type Lane } from '../../src/domain/delivery/lane.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/**
 * GET /v5/analytics/delivery-performance/ over daily aggregates written with the repository's bulk insert
 * (the learner that writes them from tracking events is tested through the events themselves).
 */

type Counts = [number, number, number, number, number, number, number, number, number];
type Timing = 'early' | 'on_time' | 'late' | 'none';

interface LaneOf {
  reference: string;
  lane: Lane;
}

const lane = (reference: string, carrierId: string, service: string, destinationCountry: string, destinationPostal: string): LaneOf => ({
  reference,
  lane: { carrierId, service, originCountry: 'DE', originPostal: '10115', destinationCountry, destinationPostal },
});

const L1 = lane('ups', 'upsglb', 'express', 'FR', '75001');
const L2 = lane('ups', 'upsglb', 'standard', 'DE', '10117');
const L3 = lane('dhl', 'dhlglb', '', 'FR', '69001');
const L4 = lane('dhl', 'dhlglb', '', 'AT', '');
const QUOTED = lane('acme, "fast"', 'sandbx', 'next, day', 'NL', '1011');

const keyOf = (l: LaneOf) => analyticsLaneKey(l.reference, l.lane);

/**
 * One daily row and its histogram. Counts: shipments, accepted, first_attempts, first_attempt_successes,
 * delivered, on_time, promised, exceptions, returned_to_sender.
 */
function daily(
  accountId: number,
  day: string,
  l: LaneOf,
  counts: Counts,
  transits: Array<[number, Timing, number]> = [],
): { day: Insertable<DeliveryDailyTable>; transits: Insertable<DeliveryDailyTransitsTable>[] } {
  const [shipments, accepted, first_attempts, first_attempt_successes, delivered, on_time, promised, exceptions, returned_to_sender] =
    counts;
  const lane_key = keyOf(l);
  return {
    day: {
      account_id: accountId,
      day,
      lane_key,
      carrier_reference: l.reference,
      carrier_id: l.lane.carrierId,
      shipping_service: l.lane.service,
      origin_country: l.lane.originCountry,
      destination_country: l.lane.destinationCountry,
      destination_prefix: l.lane.destinationPostal.slice(0, 2),
      shipments,
      accepted,
      first_attempts,
      first_attempt_successes,
      delivered,
      on_time,
      promised,
      exceptions,
      returned_to_sender,
    },
    transits: transits.map(([transit, timing, shipments]) => ({ account_id: accountId, day, lane_key, transit, timing, shipments })),
  };
}

const MARCH = { from: '2026-03-01', to: '2026-03-31' };

describe('GET /v5/analytics/delivery-performance/', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    other = await t.account();
    const id = async (a: TestAccount) => (await t.context.repos.accounts.findByUuid(a.accountUuid))?.id as number;
    const [a, b] = [await id(acct), await id(other)];
    const rows = [
      // 2026-03-02 is a Monday, 2026-03-08 the Sunday of the same ISO week.
      daily(
        a,
        '2026-03-02',
        L1,
        [10, 9, 8, 6, 7, 5, 6, 1, 0],
        [
          [1, 'on_time', 3],
          [2, 'on_time', 2],
          [2, 'late', 1],
          [3, 'late', 1],
          [1, 'none', 1],
        ],
      ),
      daily(
        a,
        '2026-03-08',
        L2,
        [4, 4, 4, 4, 4, 2, 4, 0, 1],
        [
          [1, 'early', 1],
          [1, 'on_time', 1],
          [4, 'late', 2],
        ],
      ),
      daily(a, '2026-03-09', L3, [5, 3, 2, 1, 1, 0, 0, 2, 1], [[2, 'none', 2]]),
      daily(a, '2026-03-09', L4, [3, 0, 0, 0, 0, 0, 0, 1, 0]),
      // Outside March: never counted in it.
      daily(a, '2026-02-28', L1, [100, 100, 100, 100, 100, 100, 100, 100, 100], [[9, 'late', 100]]),
      daily(a, '2026-04-01', L3, [100, 100, 100, 100, 100, 100, 100, 100, 100], [[9, 'late', 100]]),
      daily(
        a,
        '2026-05-10',
        QUOTED,
        [2, 2, 2, 1, 2, 1, 2, 0, 0],
        [
          [1, 'on_time', 1],
          [3, 'late', 1],
        ],
      ),
      // Another account's rows on the same days and lanes.
      daily(b, '2026-03-02', L1, [1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000], [[7, 'early', 1000]]),
      daily(b, '2026-03-09', L3, [50, 50, 50, 0, 0, 0, 50, 0, 0], [[5, 'late', 50]]),
    ];
    await t.context.repos.transaction((repos) =>
      repos.deliveryAnalytics.insertDaily(
        rows.map((r) => r.day),
        rows.flatMap((r) => r.transits),
      ),
    );
  });
  afterAll(() => t.close());

  const get = (query: Record<string, string>, headers: Record<string, string> = {}, token: string | null = acct.token) =>
    t.app.inject({
      method: 'GET',
      url: '/v5/analytics/delivery-performance/',
      query,
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    });

  const rowsOf = async (query: Record<string, string>, token = acct.token) => {
    const res = await get(query, {}, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    return res.json().data.rows as Array<Record<string, unknown>>;
  };

  const ups = {
    key: 'ups',
    shipments: 14,
    accepted: 13,
    first_attempts: 12,
    delivered: 11,
    first_attempt_success_rate: 10 / 12,
    on_time_rate: 7 / 10,
    // 6 first attempts after 1 working day, 3 after 2, 1 after 3, 2 after 4.
    transit_working_days: { median: 1, p90: 4, mean: 1.92 },
    exceptions: 1,
    returned_to_sender: 1,
  };
  const dhl = {
    key: 'dhl',
    shipments: 8,
    accepted: 3,
    first_attempts: 2,
    delivered: 1,
    first_attempt_success_rate: 0.5,
    // No first attempt had a window.
    on_time_rate: null,
    transit_working_days: { median: 2, p90: 2, mean: 2 },
    exceptions: 3,
    returned_to_sender: 1,
  };

  it('sums by carrier configuration, sorted by key, with the period and dimension', async () => {
    const res = await get({ ...MARCH, group_by: 'carrier' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ api_response: '200', data: { ...MARCH, group_by: 'carrier', rows: [dhl, ups] } });
  });

  it('groups by carrier when group_by is left out', async () => {
    expect(await rowsOf(MARCH)).toEqual([dhl, ups]);
  });

  it('sums by destination country; rates and transit times are null without their denominators', async () => {
    expect(await rowsOf({ ...MARCH, group_by: 'destination_country' })).toEqual([
      {
        key: 'AT',
        shipments: 3,
        accepted: 0,
        first_attempts: 0,
        delivered: 0,
        first_attempt_success_rate: null,
        on_time_rate: null,
        transit_working_days: { median: null, p90: null, mean: null },
        exceptions: 1,
        returned_to_sender: 0,
      },
      {
        key: 'DE',
        shipments: 4,
        accepted: 4,
        first_attempts: 4,
        delivered: 4,
        first_attempt_success_rate: 1,
        on_time_rate: 0.5,
        // Half the first attempts after 1 working day: the median is 1.
        transit_working_days: { median: 1, p90: 4, mean: 2.5 },
        exceptions: 0,
        returned_to_sender: 1,
      },
      {
        key: 'FR',
        shipments: 15,
        accepted: 12,
        first_attempts: 10,
        delivered: 8,
        first_attempt_success_rate: 0.7,
        on_time_rate: 5 / 6,
        // 4 after 1 day, 5 after 2, 1 after 3: 2 reaches exactly 90%.
        transit_working_days: { median: 2, p90: 2, mean: 1.7 },
        exceptions: 3,
        returned_to_sender: 1,
      },
    ]);
  });

  it('sums by lane, with the lane’s parts beside its key', async () => {
    const rows = await rowsOf({ ...MARCH, group_by: 'lane' });
    expect(rows.map((row) => row.key)).toEqual([keyOf(L4), keyOf(L3), keyOf(L1), keyOf(L2)]);
    expect(rows[2]).toEqual({
      key: '["ups","upsglb","express","DE","FR","75"]',
      carrier_reference: 'ups',
      carrier_id: 'upsglb',
      shipping_service: 'express',
      origin_country: 'DE',
      destination_country: 'FR',
      destination_postal_prefix: '75',
      shipments: 10,
      accepted: 9,
      first_attempts: 8,
      delivered: 7,
      first_attempt_success_rate: 0.75,
      on_time_rate: 5 / 6,
      // 4 after 1 working day, 3 after 2, 1 after 3: a mean of 1.625, rounded up.
      transit_working_days: { median: 1, p90: 3, mean: 1.63 },
      exceptions: 1,
      returned_to_sender: 0,
    });
    expect(rows[0]).toMatchObject({
      key: '["dhl","dhlglb","","DE","AT",""]',
      shipping_service: '',
      destination_postal_prefix: '',
      shipments: 3,
    });
  });

  it('sums by ISO week, keyed by its Monday; a period starting mid-week counts only its own days', async () => {
    const { key: _ups, ...upsCounts } = ups;
    const { key: _dhl, ...dhlCounts } = dhl;
    expect(await rowsOf({ ...MARCH, group_by: 'week' })).toEqual([
      { key: '2026-03-02', ...upsCounts },
      { key: '2026-03-09', ...dhlCounts },
    ]);
    const fromTuesday = await rowsOf({ from: '2026-03-03', to: '2026-03-09', group_by: 'week' });
    expect(fromTuesday.map((row) => [row.key, row.shipments])).toEqual([
      ['2026-03-02', 4],
      ['2026-03-09', 8],
    ]);
    // The Sunday before the period's Monday belongs to the week before.
    const withFebruary = await rowsOf({ from: '2026-02-28', to: '2026-03-02', group_by: 'week' });
    expect(withFebruary.map((row) => [row.key, row.shipments])).toEqual([
      ['2026-02-23', 100],
      ['2026-03-02', 10],
    ]);
  });

  it('filters by carrier_reference and by shipping_service (read trimmed and lower-cased)', async () => {
    expect(await rowsOf({ ...MARCH, carrier_reference: 'ups' })).toEqual([ups]);
    expect(await rowsOf({ ...MARCH, carrier_reference: 'nobody' })).toEqual([]);
    const express = await rowsOf({ ...MARCH, group_by: 'destination_country', shipping_service: ' EXPRESS ' });
    expect(express.map((row) => [row.key, row.shipments])).toEqual([['FR', 10]]);
    const both = await rowsOf({ ...MARCH, group_by: 'week', carrier_reference: 'ups', shipping_service: 'standard' });
    expect(both.map((row) => [row.key, row.shipments])).toEqual([['2026-03-02', 4]]);
  });

  it('counts the days from and to themselves, and nothing of the days around them', async () => {
    const one = await rowsOf({ from: '2026-03-02', to: '2026-03-02' });
    expect(one.map((row) => [row.key, row.shipments])).toEqual([['ups', 10]]);
    const around = await rowsOf({ from: '2026-02-28', to: '2026-04-01' });
    expect(around.map((row) => [row.key, row.shipments])).toEqual([
      ['dhl', 108],
      ['ups', 114],
    ]);
    expect(await rowsOf({ from: '2026-03-10', to: '2026-03-31' })).toEqual([]);
  });

  it('never counts another account’s rows, and shows that account only its own', async () => {
    const theirs = await rowsOf(MARCH, other.token);
    expect(theirs.map((row) => [row.key, row.shipments])).toEqual([
      ['dhl', 50],
      ['ups', 1000],
    ]);
    expect(theirs[1].transit_working_days).toEqual({ median: 7, p90: 7, mean: 7 });
    const stranger = await t.account();
    expect(await rowsOf(MARCH, stranger.token)).toEqual([]);
  });

  it('answers CSV for format=csv, with a header line and RFC 4180 quoting', async () => {
    const res = await get({ ...MARCH, format: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="delivery-performance-2026-03-01-2026-03-31.csv"');
    expect(res.body).toBe(
      [
        'key,shipments,accepted,first_attempts,delivered,first_attempt_success_rate,on_time_rate,transit_median_working_days,transit_p90_working_days,transit_mean_working_days,exceptions,returned_to_sender',
        'dhl,8,3,2,1,0.5,,2,2,2,3,1',
        `ups,14,13,12,11,${10 / 12},0.7,1,4,1.92,1,1`,
        '',
      ].join('\r\n'),
    );

    const lanes = await get({ from: '2026-05-01', to: '2026-05-31', group_by: 'lane', format: 'csv' });
    expect(lanes.body).toBe(
      [
        'key,carrier_reference,carrier_id,shipping_service,origin_country,destination_country,destination_postal_prefix,shipments,accepted,first_attempts,delivered,first_attempt_success_rate,on_time_rate,transit_median_working_days,transit_p90_working_days,transit_mean_working_days,exceptions,returned_to_sender',
        // The lane key is a JSON array, quoted as any field with quotes or commas.
        '"[""acme, \\""fast\\"""",""sandbx"",""next, day"",""DE"",""NL"",""10""]","acme, ""fast""",sandbx,"next, day",DE,NL,10,2,2,2,2,0.5,0.5,1,3,2,0,0',
        '',
      ].join('\r\n'),
    );
  });

  it('answers CSV for Accept: text/csv unless format=json, and JSON when JSON is preferred', async () => {
    const csv = await get(MARCH, { accept: 'text/csv' });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body.split('\r\n')[1]).toBe('dhl,8,3,2,1,0.5,,2,2,2,3,1');
    const weighted = await get(MARCH, { accept: 'application/json;q=0.5, text/csv' });
    expect(weighted.headers['content-type']).toBe('text/csv; charset=utf-8');
    for (const [query, accept] of [
      [{ ...MARCH, format: 'json' }, 'text/csv'],
      [MARCH, 'application/json, text/csv;q=0.9'],
      [MARCH, '*/*'],
    ] as const) {
      const res = await get(query, { accept });
      expect(res.headers['content-type'], accept).toMatch(/^application\/json/);
      expect(res.json().data.rows).toEqual([dhl, ups]);
    }
    const empty = await get({ from: '2026-03-10', to: '2026-03-31', format: 'csv' });
    expect(empty.body.split('\r\n')).toEqual([expect.stringMatching(/^key,shipments,/), '']);
  });

  it('refuses each bad parameter with 4030 on that parameter', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ to: '2026-03-31' }, 'from'],
      [{ from: '2026-03-01' }, 'to'],
      [{ ...MARCH, from: '2026-02-30' }, 'from'],
      [{ ...MARCH, from: '2026-3-1' }, 'from'],
      [{ ...MARCH, to: 'yesterday' }, 'to'],
      [{ from: '2026-03-31', to: '2026-03-01' }, 'to'],
      // 367 days, from and to included.
      [{ from: '2025-01-01', to: '2026-01-02' }, 'to'],
      [{ ...MARCH, group_by: 'country' }, 'group_by'],
      [{ ...MARCH, group_by: '' }, 'group_by'],
      [{ ...MARCH, format: 'xml' }, 'format'],
      [{ ...MARCH, carrier_reference: '' }, 'carrier_reference'],
      [{ ...MARCH, carrier_reference: 'x'.repeat(51) }, 'carrier_reference'],
      [{ ...MARCH, shipping_service: '' }, 'shipping_service'],
      [{ ...MARCH, carrier: 'ups' }, 'carrier'],
    ];
    for (const [query, field] of cases) {
      const res = await get(query);
      expect(res.statusCode, `${JSON.stringify(query)}: ${res.body}`).toBe(400);
      const body = res.json();
      expect(body.api_response, JSON.stringify(query)).toBe('4030');
      expect(Object.keys(body.errors), JSON.stringify(query)).toEqual([field]);
    }
  });

  it('takes a period of 366 days, from and to included', async () => {
    const res = await get({ from: '2024-01-01', to: '2024-12-31' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.rows).toEqual([]);
  });

  it('answers periods at the end of the calendar, through 9999-12-31, for every grouping', async () => {
    for (const [from, to] of [
      ['9999-12-31', '9999-12-31'],
      ['9999-12-01', '9999-12-31'],
      ['9999-01-01', '9999-12-31'],
      ['9999-11-15', '9999-12-31'],
    ]) {
      for (const group_by of ['carrier', 'lane', 'destination_country', 'week']) {
        expect(await rowsOf({ from, to, group_by }), `${from} ${to} ${group_by}`).toEqual([]);
      }
    }
  });

  it('refuses a request without a token or with a wrong one (403), as every merchant route', async () => {
    for (const token of [null, 'not-a-token']) {
      const res = await get(MARCH, {}, token);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ api_response: 403 });
    }
  });

  it('is in the OpenAPI document with its query and both forms of answer', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operation = doc.paths['/v5/analytics/delivery-performance/'].get;
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
    expect(operation.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['carrier_reference', 'format', 'from', 'group_by', 'shipping_service', 'to'].sort(),
    );
    expect(Object.keys(operation.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
  });
});
