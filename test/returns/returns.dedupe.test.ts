import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from './fixtures.js';

describe('30-minute de-duplication of POST /v5/return/', () => {
  let t: TestApp;
  let acct: TestAccount;
  const countReturns = async () => (await t.context.database.db.selectFrom('returns').select('id').execute()).length;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'] });
  });
  afterAll(() => t.close());

  it('answers a repeat with the original response and creates nothing', async () => {
    const body = standardReturn('DUP-1');
    const first = await t.call(acct.token, 'POST', '/v5/return/', body);
    t.clock.advance(29 * 60_000);
    // Same content, keys in another order: still the same request.
    const reordered = { shipment: body.shipment, return_ticket: { ...body.return_ticket } };
    const second = await t.call(acct.token, 'POST', '/v5/return/', reordered);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await countReturns()).toBe(1);
  });

  it("keeps a creation in the layout every version reads (rolling deploys): the answer's body, api_response and data", async () => {
    const first = await t.call(acct.token, 'POST', '/v5/return/', standardReturn('DUP-LAYOUT'));
    expect(first.statusCode).toBe(200);
    const rows = await t.context.database.db
      .selectFrom('request_replays')
      .select('response')
      .where('scope', '=', 'return-create')
      .execute();
    const kept = rows
      .map((row) => JSON.parse(String(row.response)))
      .find((r) => r.data?.shipment?.shipment_uuid === first.json().data.shipment.shipment_uuid);
    expect(kept).toEqual(first.json());
  });

  it('creates exactly one return for identical requests arriving at once', async () => {
    const before = await countReturns();
    const body = standardReturn('DUP-2');
    const results = await Promise.all(Array.from({ length: 8 }, () => t.call(acct.token, 'POST', '/v5/return/', body)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(8).fill(200));
    const uuids = new Set(results.map((r) => r.json().data.return_ticket.return_uuid));
    expect(uuids.size).toBe(1);
    expect(await countReturns()).toBe(before + 1);
  });

  it('treats the same request after 30 minutes as new (then shipment_id must be unique)', async () => {
    const body = standardReturn('DUP-3');
    expect((await t.call(acct.token, 'POST', '/v5/return/', body)).statusCode).toBe(200);
    t.clock.advance(30 * 60_000 + 1000);
    const later = await t.call(acct.token, 'POST', '/v5/return/', body);
    expect(later.statusCode).toBe(400);
    expect(later.json().errors.return_ticket.return_id).toBeDefined();
    const sameShipmentOtherRma = await t.call(acct.token, 'POST', '/v5/return/', { ...body, return_ticket: { return_id: 'RMA-other' } });
    expect(sameShipmentOtherRma.json().errors.shipment.shipment_id).toBeDefined();
    const changed = await t.call(acct.token, 'POST', '/v5/return/', standardReturn('DUP-3b'));
    expect(changed.statusCode).toBe(200);
  });

  it('keeps accounts apart: the same body in another account is its own return', async () => {
    const other = await t.account({ features: ['returns'] });
    const body = standardReturn('DUP-4');
    const mine = await t.call(acct.token, 'POST', '/v5/return/', body);
    const theirs = await t.call(other.token, 'POST', '/v5/return/', body);
    expect(theirs.statusCode).toBe(200);
    expect(theirs.json().data.return_ticket.return_uuid).not.toBe(mine.json().data.return_ticket.return_uuid);
  });

  it('does not remember refused requests', async () => {
    const bad = standardReturn('DUP-5', { return_ticket: { refund_method: 'cash' } });
    expect((await t.call(acct.token, 'POST', '/v5/return/', bad)).statusCode).toBe(400);
    const rows = await t.context.database.db.selectFrom('request_replays').selectAll().where('scope', '=', 'return-create').execute();
    expect(rows.every((r) => r.response !== null)).toBe(true);
  });
});

describe('Idempotency-Key on every POST', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'] });
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, key: string) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: body as object,
      headers: { authorization: `Bearer ${acct.token}`, 'idempotency-key': key },
    });

  it('replays the stored response for the same key and body', async () => {
    const first = await post('/v5/shipment/', { shipment_id: 'IK-1' }, 'key-1');
    const again = await post('/v5/shipment/', { shipment_id: 'IK-1' }, 'key-1');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(again.headers['idempotent-replayed']).toBe('true');
    const list = (await t.call(acct.token, 'GET', '/v5/shipment/list/', undefined, { shipment_id: 'IK-1' })).json();
    expect(list.data).toHaveLength(1);
  });

  it('replays an update, answered as rendered JSON, byte for byte', async () => {
    await post('/v5/shipment/', { shipment_id: 'IK-U' }, 'key-u0');
    const first = await post('/v5-2-0/shipment/update/?shipment_id=IK-U', { note: 'first' }, 'key-u1');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.note).toBe('first');
    await post('/v5-2-0/shipment/update/?shipment_id=IK-U', { note: 'second' }, 'key-u2');
    const again = await post('/v5-2-0/shipment/update/?shipment_id=IK-U', { note: 'first' }, 'key-u1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
  });

  it('refuses the same key with a different body with 409', async () => {
    await post('/v5/shipment/', { shipment_id: 'IK-2' }, 'key-2');
    const res = await post('/v5/shipment/', { shipment_id: 'IK-3' }, 'key-2');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ api_response: '4090' });
    expect(res.json().message).toMatch(/different request/);
  });

  it('forgets a key after 24 hours', async () => {
    await post('/v5/shipment/', { shipment_id: 'IK-4' }, 'key-4');
    t.clock.advance(24 * 60 * 60_000 + 1000);
    // t.as renews the account's expired token; the same key with another body is a new request now.
    await t.as(acct)('GET', '/v5/carrier-configs/');
    const res = await post('/v5/shipment/', { shipment_id: 'IK-5' }, 'key-4');
    expect(res.statusCode).toBe(200);
  });

  it('keeps keys apart per account', async () => {
    const other = await t.account();
    await post('/v5/shipment/', { shipment_id: 'IK-6' }, 'shared-key');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/',
      payload: { shipment_id: 'IK-7' },
      headers: { authorization: `Bearer ${other.token}`, 'idempotency-key': 'shared-key' },
    });
    expect(res.statusCode).toBe(200);
  });

  it('takes the key when its holder lets it go between a refused claim and the look-up (not "a different request")', async () => {
    const { replays } = t.context.repos;
    const accountId = (await t.context.repos.accounts.findByUuid(acct.accountUuid))?.id as number;
    // Another attempt holds the key, and lets it go (its answer was no outcome) just as this one looks it up.
    const now = t.clock.now();
    await replays.claim({
      account_id: accountId,
      scope: 'idempotency-key',
      replay_key: 'race-key',
      request_hash: 'held by the other attempt',
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + 60_000).toISOString(),
    });
    const find = replays.find.bind(replays);
    let released = false;
    replays.find = async (id, scope, key) => {
      if (!released) {
        released = true;
        await replays.release(id, scope, key);
      }
      return find(id, scope, key);
    };
    try {
      const res = await post('/v5/shipment/', { shipment_id: 'IK-RACE' }, 'race-key');
      expect(res.statusCode, res.body).toBe(200);
      expect(released).toBe(true);
    } finally {
      replays.find = find;
    }
    const again = await post('/v5/shipment/', { shipment_id: 'IK-RACE' }, 'race-key');
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('works on return creation too', async () => {
    const body = standardReturn('IK-R');
    const first = await post('/v5/return/', body, 'ret-key');
    const second = await post('/v5/return/', body, 'ret-key');
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
  });
});
