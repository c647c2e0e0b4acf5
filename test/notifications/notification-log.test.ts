import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/clock.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { SmtpSink } from './smtp-sink.js';

/**
 * GET /v5/notification/log/ of one shipment, named by shipment_uuid or by the merchant's shipment_id, read as
 * on the shipment routes. Log entries come from parcels the sandbox carrier says are delivered, e-mailed to a
 * local SMTP server.
 */
describe('the notification log of one shipment', () => {
  let t: TestApp;
  let owner: TestAccount;
  let outsider: TestAccount;
  let smtp: SmtpSink;
  const shipments: Record<string, string> = {};
  beforeAll(async () => {
    smtp = await new SmtpSink().start();
    t = await createTestApp({
      clock: new ManualClock(new Date('2026-11-23T08:00:00Z')),
      env: { WAYBILL_SMTP_URL: smtp.url, WAYBILL_SMTP_FROM: 'Parcel updates <updates@waybill.test>' },
    });
    owner = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    outsider = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
    const track = async (acct: TestAccount, shipmentId: string, trackingNumber: string, email: string) => {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', {
        shipment_id: shipmentId,
        tracking_number: trackingNumber,
        carrier_reference: 'sb',
        notification_email: [email],
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.shipment_uuid as string;
    };
    shipments.one = await track(owner, 'log-1', 'WB4200001', 'one@example.com');
    shipments.two = await track(owner, 'log-2', 'WB4200002', 'two@example.com');
    // The outsider's own shipment under the owner's first shipment_id.
    shipments.outsiders = await track(outsider, 'log-1', 'WB4200003', 'out@example.com');
    for (let i = 0; i < 3; i++) await t.context.worker.drain();
  });
  afterAll(async () => {
    await t.close();
    await smtp.stop();
  });

  const log = (acct: TestAccount, query: Record<string, string>) => t.call(acct.token, 'GET', '/v5/notification/log/', undefined, query);

  describe('what works', () => {
    it('shipment_id answers what shipment_uuid answers: that shipment’s entries only', async () => {
      const byUuid = await log(owner, { shipment_uuid: shipments.one });
      expect(byUuid.statusCode, byUuid.body).toBe(200);
      const entries = byUuid.json().data.data;
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ shipment_uuid: shipments.one, recipient: 'one@example.com', status: 'sent' });
      const byId = await log(owner, { shipment_id: 'log-1' });
      expect(byId.statusCode, byId.body).toBe(200);
      expect(byId.json()).toEqual(byUuid.json());
    });

    it('takes both when they name the same shipment', async () => {
      const res = await log(owner, { shipment_uuid: shipments.two, shipment_id: 'log-2' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.data.map((e: { recipient: string }) => e.recipient)).toEqual(['two@example.com']);
    });

    it('without either, lists the whole account’s log', async () => {
      const res = await log(owner, {});
      expect(
        res
          .json()
          .data.data.map((e: { shipment_uuid: string }) => e.shipment_uuid)
          .sort(),
      ).toEqual([shipments.one, shipments.two].sort());
    });
  });

  describe('what bad input gets', () => {
    it('an unknown shipment_id gets what an unknown shipment_uuid gets: 404 4041', async () => {
      const byId = await log(owner, { shipment_id: 'never-created' });
      const byUuid = await log(owner, { shipment_uuid: '00000000-0000-4000-8000-000000000000' });
      expect(byId.statusCode).toBe(404);
      expect(byId.json()).toMatchObject({ api_response: '4041' });
      expect(byId.json()).toEqual(byUuid.json());
    });

    it('a shipment_uuid and a shipment_id naming different shipments are a 4030 on shipment_id', async () => {
      const res = await log(owner, { shipment_uuid: shipments.one, shipment_id: 'log-2' });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030' });
      expect(Object.keys(res.json().errors)).toEqual(['shipment_id']);
    });

    it.each([
      ['empty', ''],
      ['over 50 characters', 'x'.repeat(51)],
    ])('a shipment_id %s is a 4030 on shipment_id, as on the details route', async (_, shipmentId) => {
      const res = await log(owner, { shipment_id: shipmentId });
      const details = await t.call(owner.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: shipmentId });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030', errors: { shipment_id: [expect.any(String)] } });
      expect(res.json().errors).toEqual(details.json().errors);
    });
  });

  describe('what an outsider gets', () => {
    it('another account’s shipment is not found by its shipment_id or its uuid, and nothing of it is shown', async () => {
      const unknown = await log(outsider, { shipment_uuid: '00000000-0000-4000-8000-000000000000' });
      for (const query of [{ shipment_uuid: shipments.two }, { shipment_id: 'log-2' }] as Record<string, string>[]) {
        const res = await log(outsider, query);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual(unknown.json());
        expect(res.body).not.toContain('two@example.com');
      }
    });

    it('the same shipment_id in two accounts names each account’s own shipment', async () => {
      const res = await log(outsider, { shipment_id: 'log-1' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.data).toEqual([expect.objectContaining({ shipment_uuid: shipments.outsiders, recipient: 'out@example.com' })]);
      const mismatch = await log(outsider, { shipment_uuid: shipments.one, shipment_id: 'log-1' });
      expect(mismatch.statusCode).toBe(404);
    });
  });
});
