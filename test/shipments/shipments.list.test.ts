import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTrackingNumber } from '../../src/db/repositories/shipments.repository.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { queryPlan } from '../helpers/query-plan.js';

describe('GET /v5/shipment/list/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    for (let i = 0; i < 25; i++) {
      t.clock.advance(1000);
      await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: `L-${String(i).padStart(2, '0')}`,
        order_id: i % 5 === 0 ? 'ORDER-5' : undefined,
        tags: i % 2 === 0 ? ['even'] : ['odd'],
        ...(i === 7 ? { tracking_number: 'WB7000007', carrier_reference: 'sb' } : {}),
      });
    }
  });
  afterAll(() => t.close());

  const list = (query: Record<string, string> = {}) => t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, query);

  it('returns 20 v5 shipments newest first and a cursor', async () => {
    const res = await list();
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.api_response).toBe('200');
    expect(body.data).toHaveLength(20);
    expect(body.data[0].shipment_id).toBe('L-24');
    expect(body.data[0].line_items).toBeUndefined();
    expect(typeof body.next_page).toBe('string');
  });

  it('pages through everything with no duplicates and no skips while shipments are created', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let inserted = 0;
    do {
      const res = await list(cursor ? { next_page: cursor } : { limit: '7' });
      const body = res.json();
      seen.push(...body.data.map((s: { shipment_id: string }) => s.shipment_id));
      cursor = body.next_page;
      // Concurrent writers: new shipments arrive between pages.
      await Promise.all([0, 1].map(() => t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: `NEW-${inserted++}` })));
    } while (cursor);
    const original = Array.from({ length: 25 }, (_, i) => `L-${String(24 - i).padStart(2, '0')}`);
    expect(seen).toEqual(original);
  });

  it('filters by tag, order, tracking number, carrier, status and shipment_id', async () => {
    expect((await list({ tag: 'odd', limit: '100' })).json().data).toHaveLength(12);
    const byOrder = (await list({ order_id: 'ORDER-5' })).json().data;
    expect(byOrder.map((s: { shipment_id: string }) => s.shipment_id)).toEqual(['L-20', 'L-15', 'L-10', 'L-05', 'L-00']);
    expect((await list({ tracking_number: 'WB7000007' })).json().data[0].shipment_id).toBe('L-07');
    expect((await list({ carrier_reference: 'sb' })).json().data).toHaveLength(1);
    expect((await list({ shipment_id: 'L-03' })).json().data).toHaveLength(1);
    expect((await list({ status: 'pending', limit: '100' })).json().data.length).toBeGreaterThanOrEqual(25);
  });

  it('filters by the tracking number exactly as stored, found by the index on its key', async () => {
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', {
      shipment_id: 'K-1',
      tracking_number: 'wb 700-0008',
      carrier_reference: 'sb',
    });
    expect(created.statusCode).toBe(200);
    const found = async (number: string) => {
      const res = await list({ tracking_number: number });
      return res.statusCode === 404 ? [] : res.json().data.map((s: { shipment_id: string }) => s.shipment_id);
    };
    expect(await found('wb 700-0008')).toEqual(['K-1']);
    // Same key, another spelling: the filter stays exact (no match is a 404, as for every filter).
    expect(await found('WB7000008')).toEqual([]);
    expect(await found('wb 700-000')).toEqual([]);

    const db = t.context.database.db;
    const query = db.selectFrom('shipments').select('id').where('account_id', '=', 1).where(withTrackingNumber('WB7000007')).compile();
    expect(await queryPlan(db, query)).toContain('shipments_account_tracking_key');
  });

  it('filters by created and updated date', async () => {
    const all = (await list({ limit: '100' })).json().data as Array<{ shipment_id: string; created_date: string }>;
    const l10 = all.find((s) => s.shipment_id === 'L-10')!;
    const l12 = all.find((s) => s.shipment_id === 'L-12')!;
    const ranged = (await list({ created_date_from: l10.created_date, created_date_to: l12.created_date })).json().data;
    expect(ranged.map((s: { shipment_id: string }) => s.shipment_id)).toEqual(['L-12', 'L-11', 'L-10']);
    const updated = (await list({ updated_date_from: l12.created_date, limit: '100' })).json().data;
    expect(updated.some((s: { shipment_id: string }) => s.shipment_id === 'L-11')).toBe(false);
  });

  it('answers 404 4041 when nothing matches', async () => {
    const res = await list({ tag: 'nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().api_response).toBe('4041');
  });

  it.each([
    [{ limit: '101' }, 'limit'],
    [{ limit: '0' }, 'limit'],
    [{ limit: 'ten' }, 'limit'],
    [{ status: 'lost' }, 'status'],
    [{ created_date_from: 'yesterday' }, 'created_date_from'],
    [{ next_page: 'garbage' }, 'next_page'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %o naming the field', async (query, field) => {
    const res = await list(query as Record<string, string>);
    expect(res.statusCode).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().errors[field]).toBeDefined();
  });

  it('pages a filtered list with its cursor, and refuses a cursor whose filter was edited', async () => {
    const first = (await list({ tag: 'even', created_date_from: '2000-01-01', limit: '5' })).json();
    expect(first.data).toHaveLength(5);
    const second = (await list({ next_page: first.next_page })).json();
    expect(second.api_response).toBe('200');
    expect(second.data.every((s: { tags: string[] }) => s.tags.includes('even'))).toBe(true);

    const cursor = JSON.parse(Buffer.from(first.next_page, 'base64url').toString('utf8'));
    const edited = (filter: unknown) => Buffer.from(JSON.stringify({ ...cursor, filter })).toString('base64url');
    for (const filter of [
      null,
      [],
      { tag: ['a', 'b'] },
      { status: ['pending', 'delivered'] },
      { status: true },
      { createdFrom: { a: 1 } },
      { createdFrom: 'garbage' },
      { account_id: 1 },
      { status: 'bogus' },
      { tag: 'ev\u0000en' },
      { tag: 'x'.repeat(101) },
      { createdFrom: '+010000-01-01T00:00:00.000Z' },
    ]) {
      const res = await list({ next_page: edited(filter) });
      expect(res.statusCode, JSON.stringify(filter)).toBe(400);
      expect(res.json().api_response).toBe('4030');
      expect(res.json().errors.next_page).toBeDefined();
    }
    for (const before of [1e300, 0, -5, 2 ** 53]) {
      const res = await list({ next_page: Buffer.from(JSON.stringify({ ...cursor, before })).toString('base64url') });
      expect(res.statusCode, String(before)).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual(['next_page']);
    }
  });

  it('pages a filter of characters outside the basic plane, counted as characters like the query counts them', async () => {
    const gifts = '🎁'.repeat(60);
    for (const id of ['GIFT-1', 'GIFT-2']) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: id, tags: [gifts] });
      expect(res.statusCode, res.body).toBe(200);
    }
    const first = await list({ tag: gifts, limit: '1' });
    expect(first.statusCode, first.body).toBe(200);
    const second = await list({ next_page: first.json().next_page });
    expect(second.statusCode, second.body).toBe(200);
    expect([first.json().data[0].shipment_id, second.json().data[0].shipment_id]).toEqual(['GIFT-2', 'GIFT-1']);
  });

  it('refuses filters beside a cursor issued for others, and takes the same ones or none', async () => {
    const first = (await list({ tag: 'even', limit: '3' })).json();
    const alone = await list({ next_page: first.next_page });
    const same = await list({ next_page: first.next_page, tag: 'even' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json()).toEqual(alone.json());
    const others: Array<Record<string, string>> = [{ tag: 'odd' }, { status: 'delivered' }, { tag: 'even', order_id: 'ORDER-5' }];
    for (const other of others) {
      const res = await list({ next_page: first.next_page, ...other });
      expect(res.statusCode, JSON.stringify(other)).toBe(400);
      expect(res.json().errors).toEqual({ next_page: [expect.stringContaining('issued for other filters')] });
    }
  });

  it("answers pages of two accounts asked for at once over real sockets, each whole and the account's own", async () => {
    const other = await t.account();
    for (let i = 0; i < 20; i++) await t.call(other.token, 'POST', '/v5/shipment/', { shipment_id: `O-${i}`, note: 'x'.repeat(500) });
    const expected = new Map<string, string>();
    for (const a of [acct, other]) expected.set(a.token, (await t.call(a.token, 'GET', '/v5/shipment/list/')).body);
    // Pages of this size are joined into buffers that are used again once written (src/http/answer-buffers.ts).
    for (const body of expected.values()) expect(Buffer.byteLength(body)).toBeGreaterThan(4 * 1024);

    const url = await t.app.listen({ port: 0, host: 'localhost' });
    const tokens = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? acct : other).token);
    const bodies = await Promise.all(
      tokens.map((token) => fetch(`${url}/v5/shipment/list/`, { headers: { authorization: `Bearer ${token}` } }).then((res) => res.text())),
    );
    for (const [i, body] of bodies.entries()) expect(body).toBe(expected.get(tokens[i]));
  });
});
