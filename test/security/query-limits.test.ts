import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Every list is paged: `limit` is 1 to 100 (default 20) and nothing answers more rows than that. */
describe('query limits on list endpoints', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['booking'], carriers: [{ carrier_reference: 'sb', booking: ['outbound'] }] });
    for (let i = 0; i < 105; i++) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: `QL-${i}` });
      if (res.statusCode !== 200) throw new Error(res.body);
    }
  });
  afterAll(() => t.close());

  const list = (query: Record<string, string>) => t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, query);
  const pudo = (query: Record<string, string>) =>
    t.call(acct.token, 'GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'sb',
      lat: '52.52',
      lng: '13.40',
      radius_meters: '50000',
      ...query,
    });

  it('answers 20 shipments by default, at most 100 when asked, and pages through the rest', async () => {
    expect((await list({})).json().data).toHaveLength(20);
    const first = (await list({ limit: '100' })).json();
    expect(first.data).toHaveLength(100);
    const second = (await list({ limit: '100', next_page: first.next_page })).json();
    expect(second.data).toHaveLength(5);
    expect(second.next_page).toBeNull();
  });

  it.each(['0', '101', '-1', '1.5', '1e3', '100000000000000000000', 'ten', ''])(
    'refuses shipment list limit=%j naming limit',
    async (limit) => {
      const res = await list({ limit });
      expect(res.statusCode).toBe(400);
      expect(res.json().api_response).toBe('4030');
      expect(res.json().errors.limit).toBeDefined();
    },
  );

  it('refuses a next_page longer than 2,000 characters', async () => {
    const res = await list({ next_page: 'a'.repeat(2001) });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.next_page).toBeDefined();
  });

  it.each(['0', '101', '-1', '1.5', 'ten'])('refuses PUDO search limit=%j naming limit', async (limit) => {
    const res = await pudo({ limit });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.limit).toBeDefined();
  });

  it('answers at most `limit` PUDO locations', async () => {
    const res = await pudo({ limit: '100' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.length).toBeGreaterThan(3);
    expect(res.json().data.length).toBeLessThanOrEqual(100);
    const three = await pudo({ limit: '3' });
    expect(three.json().data).toHaveLength(3);
  });
});
