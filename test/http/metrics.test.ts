import client from 'prom-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestDurations } from '../../src/http/request-durations.js';
import { createTestApp, type TestApp, usingPostgres } from '../helpers/app.js';

const name = 'waybill_http_request_duration_seconds';

/** The value of each line of one series (`suffix` = bucket, sum or count), keyed by its `le` for buckets. */
function series(body: string, suffix: string, route: string, status: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}_${suffix}{`) || !line.includes(`route="${route}"`) || !line.includes(`status="${status}"`)) continue;
    found.set(/le="([^"]+)"/.exec(line)?.[1] ?? '', Number(line.split(' ').pop()));
  }
  return found;
}

describe('request duration histogram', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('counts every request in cumulative buckets, with +Inf, sum and count agreeing', async () => {
    const acct = await t.account();
    for (let i = 0; i < 5; i++) expect((await t.call(acct.token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const buckets = series(body, 'bucket', '/v5/carrier-configs/', '200');
    expect([...buckets.keys()]).toEqual(['0.001', '0.0025', '0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '+Inf']);
    const counts = [...buckets.values()];
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1]);
    expect(buckets.get('+Inf')).toBe(5);
    expect(series(body, 'count', '/v5/carrier-configs/', '200').get('')).toBe(5);
    expect(series(body, 'sum', '/v5/carrier-configs/', '200').get('')).toBeGreaterThan(0);
  });

  it('answers the registry exactly as prom-client histogram does for the same observations', async () => {
    const bounds = [0.001, 0.01, 0.1, 1];
    const observations: Array<[string, string, number, number]> = [
      ['GET', '/a/', 200, 0.0004],
      ['GET', '/a/', 200, 0.001],
      ['GET', '/a/', 200, 0.05],
      ['POST', '/a/', 201, 3],
      ['GET', '/a/', 404, 0.002],
    ];
    const ours = new client.Registry();
    const durations = new RequestDurations(name, 'help', bounds);
    durations.registerIn(ours);
    const theirs = new client.Registry();
    const histogram = new client.Histogram({
      name,
      help: 'help',
      labelNames: ['method', 'route', 'status'],
      buckets: bounds,
      registers: [theirs],
    });
    for (const [method, route, status, seconds] of observations) {
      durations.observe(method, route, status, seconds);
      histogram.observe({ method, route, status: String(status) }, seconds);
    }
    expect(await ours.metrics()).toBe(await theirs.metrics());
    expect(await ours.getMetricsAsJSON()).toEqual(await theirs.getMetricsAsJSON());
  });
});

describe('group commit counters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const totals = async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const total = (metric: string) => new RegExp(`^${metric} (\\d+)$`, 'm').exec(body)?.[1];
    return { transactions: total('waybill_sqlite_transactions_total'), commits: total('waybill_sqlite_commits_total') };
  };

  it.skipIf(usingPostgres)('count the write transactions of the embedded database and the commits that held them', async () => {
    const acct = await t.account();
    const before = await totals();
    const created = await Promise.all(
      Array.from({ length: 6 }, (_, i) => t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: `counted-${i}` })),
    );
    for (const answer of created) expect(answer.statusCode, answer.body).toBe(200);
    const after = await totals();
    const transactions = Number(after.transactions) - Number(before.transactions);
    const commits = Number(after.commits) - Number(before.commits);
    expect(transactions).toBeGreaterThanOrEqual(6);
    expect(commits).toBeGreaterThanOrEqual(1);
    expect(commits).toBeLessThanOrEqual(transactions);
  });

  it.runIf(usingPostgres)('are not shown on PostgreSQL, which has no group commit of its own', async () => {
    expect(await totals()).toEqual({ transactions: undefined, commits: undefined });
  });
});
