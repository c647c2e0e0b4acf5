import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeTrackingNumber } from '../../src/carriers/detect/index.js';
import { SandboxTransport } from '../../src/carriers/sandbox/sandbox.transport.js';
import { trackingNumberKeySql } from '../../src/db/tracking-number-key.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { queryPlan } from '../helpers/query-plan.js';

/**
 * A carrier pushes a number in its own spelling ("wb4000-310"), the merchant typed it in theirs ("wb 400-0310", "WB4000310"):
 * the push is matched on the number as carrier detection reads it, by an index lookup.
 */
describe('pushed numbers matched as detection reads them', () => {
  let t: TestApp;
  let acct: TestAccount;
  let pushToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
    const created = await t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
      carrier_reference: 'sb',
      carrier_id: 'sandbx',
    });
    expect(created.statusCode, created.body).toBe(201);
    pushToken = created.json().push_token;
  });
  afterAll(() => t.close());

  const details = async (shipmentId: string) =>
    (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data;

  /** The body the sandbox carrier would push for a number, in the carrier's spelling. */
  async function pushed(trackingNumber: string) {
    const response = await new SandboxTransport().fetchScans({
      trackingNumber,
      firstPolledAt: t.clock.now(),
      attempt: 0,
      now: t.clock.now(),
      stepSeconds: 60,
    });
    if (response.outcome !== 'response') throw new Error('no payload');
    return response.body;
  }

  it('applies a push whose number differs from the stored one only in case, spaces and dashes', async () => {
    for (const [shipmentId, trackingNumber] of [
      ['SPELL-1', 'wb 400-0310'],
      ['SPELL-2', 'WB4000310'],
      ['SPELL-3', 'WB4000311'],
    ]) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: shipmentId,
        tracking_number: trackingNumber,
        carrier_reference: 'sb',
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // Only the push may bring their news: no poll is due in this test.
    await t.context.database.db
      .updateTable('shipments')
      .set({ next_poll_at: new Date(t.clock.now().getTime() + 86_400_000).toISOString() })
      .where('shipment_id', 'like', 'SPELL-%')
      .execute();
    const res = await t.app.inject({
      method: 'POST',
      url: '/carrier-hooks/sandbx/',
      headers: { authorization: `Bearer ${pushToken}` },
      payload: (await pushed('wb4000-310')) as object,
    });
    expect(res.statusCode, res.body).toBe(200);
    await t.context.worker.runOnce();
    const typed = await details('SPELL-1');
    expect(typed.tracking_number).toBe('wb 400-0310');
    expect(typed.status).toBe('delivered');
    expect((await details('SPELL-2')).status).toBe('delivered');
    expect((await details('SPELL-3')).status).toBe('pending');
  });

  it('gives the key detection gives, for every space JavaScript knows', async () => {
    const spaces = Array.from({ length: 0x10000 }, (_, code) => String.fromCharCode(code)).filter((c) => /\s/.test(c));
    const typed = `jd${spaces.join('')}0002-12--34x`;
    const row = await sql<{
      key: string;
    }>`select ${sql.raw(trackingNumberKeySql('n'))} as key from (select ${typed} as n) as given`.execute(t.context.database.db);
    expect(row.rows[0].key).toBe(normalizeTrackingNumber(typed));
    expect(row.rows[0].key).toBe('JD00021234X');
  });

  it('finds the shipments by the index on that key, not by reading the table', async () => {
    const db = t.context.database.db;
    const query = db
      .selectFrom('shipments')
      .selectAll()
      .where('account_id', '=', 1)
      .where(sql.raw(trackingNumberKeySql('tracking_number')), '=', 'WB4000310')
      .where('carrier_reference', '=', 'sb')
      .compile();
    expect(await queryPlan(db, query)).toContain('shipments_account_tracking_key');
  });
});
