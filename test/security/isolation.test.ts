import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookableShipment } from '../booking/fixtures.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';

/** Everything account A owns that account B must never see. */
interface Owned {
  shipmentUuid: string;
  shipmentId: string;
  trackingNumber: string;
  bookedShipmentUuid: string;
  bookedShipmentId: string;
  bookingUuid: string;
  bookingTracking: string;
  documentUuid: string;
  secondDocumentUuid: string;
  documentUrl: string;
  podUrl: string;
  returnUuid: string;
  returnId: string;
  returnShipmentUuid: string;
  webhookUuid: string;
  webhookSecret: string;
  trackingPageReference: string;
  orderId: string;
}

/** Values only A ever sent or received: none may appear in an answer to B. */
const A_ONLY_VALUES = ['Ada-Isolated', 'Hidden Lane 7', 'note-only-for-a', 'manual event only A sees', 'ORDER-ISO-A', 'RMA-ISO-A-R1'];

describe('isolation between accounts', () => {
  let t: TestApp;
  let a: TestAccount;
  let b: TestAccount;
  let owned: Owned;

  const asA = (method: InjectOptions['method'], url: string, body?: unknown, query?: Record<string, string>) =>
    t.call(a.token, method, url, body, query);

  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    const carriers = [{ carrier_reference: 'sb', booking: ['outbound', 'return'], settings: { poll_interval_seconds: 60 } }];
    a = await t.account({ features: ['returns', 'booking'], carriers });
    // B has every feature and a carrier of its own, so its requests get as far as A's would.
    b = await t.account({ features: ['returns', 'booking'], carriers: [{ carrier_reference: 'b-own', booking: ['outbound', 'return'] }] });

    const ok = (res: LightMyRequestResponse, status = 200) => {
      expect(res.statusCode, res.body).toBe(status);
      return res.json();
    };
    const tracked = ok(
      await asA('POST', '/v5/shipment/', {
        ...bookableShipment('ISO-A-1', { tracking_number: 'WB4000777', carrier_reference: 'sb', order_id: 'ORDER-ISO-A' }),
        note: 'note-only-for-a',
        recipient_address: { first_name: 'Ada-Isolated', line1: 'Hidden Lane 7', city: 'Berlin', country_code: 'DE' },
      }),
    );
    await t.context.worker.runOnce();
    ok(
      await asA('POST', '/v5/events/create/', {
        shipment_id: 'ISO-A-1',
        events: [{ event: 'manual event only A sees', time: '2026-01-05T10:00:00Z' }],
      }),
    );
    ok(await asA('POST', '/v5/shipment/', bookableShipment('ISO-A-2')));
    const booking = ok(await asA('POST', '/v5/booking/', { shipment_id: 'ISO-A-2', carrier_reference: 'sb' })).data;
    ok(await asA('POST', '/v5/shipment/', bookableShipment('ISO-A-3')));
    const booking2 = ok(await asA('POST', '/v5/booking/', { shipment_id: 'ISO-A-3', carrier_reference: 'sb' })).data;
    const ret = ok(await asA('POST', '/v5/return/', standardReturn('ISO-A-R1'))).data;
    const webhook = ok(await asA('POST', '/v5/webhooks/', { url: 'https://127.0.0.1:9/a-hook' }), 201).data;
    const details = ok(await asA('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'ISO-A-1' })).data;
    expect(details.pod_url, 'the sandbox delivers WB4… numbers with a proof of delivery').toEqual(expect.any(String));
    owned = {
      shipmentUuid: tracked.data.shipment_uuid,
      shipmentId: 'ISO-A-1',
      trackingNumber: 'WB4000777',
      bookedShipmentUuid: booking.shipment_uuid,
      bookedShipmentId: 'ISO-A-2',
      bookingUuid: booking.booking_uuid,
      bookingTracking: booking.tracking_number,
      documentUuid: booking.documents[0].document_uuid,
      secondDocumentUuid: booking2.documents[0].document_uuid,
      documentUrl: booking.documents[0].download_url,
      podUrl: details.pod_url,
      returnUuid: ret.return_ticket.return_uuid,
      returnId: 'RMA-ISO-A-R1',
      returnShipmentUuid: ret.shipment.shipment_uuid,
      webhookUuid: webhook.webhook_uuid,
      webhookSecret: webhook.secret,
      trackingPageReference: details.tracking_page_reference,
      orderId: 'ORDER-ISO-A',
    };
  });
  afterAll(() => t.close());

  /** Every identifier and value of A; the ones B sent in this request may be echoed back in a 4030. */
  const secrets = () => [...Object.values(owned), ...A_ONLY_VALUES];

  function expectRefusedWithoutLeak(res: LightMyRequestResponse, sent: string, label: string): void {
    const where = `${label} → ${res.statusCode} ${res.body.slice(0, 400)}`;
    const body = res.body ? res.json() : {};
    const refused = res.statusCode === 404 || (res.statusCode === 400 && body.api_response === '4030');
    expect(refused, where).toBe(true);
    for (const value of secrets()) {
      if (sent.includes(value)) continue;
      expect(res.body.includes(value), `${where}: leaks ${value}`).toBe(false);
    }
  }

  it("B gets 404 or 4030 for every endpoint aimed at A's identifiers, and never A's data", async () => {
    const o = owned;
    const byShipment: Array<Record<string, string>> = [
      { shipment_uuid: o.shipmentUuid },
      { shipment_id: o.shipmentId },
      { shipment_uuid: o.bookedShipmentUuid },
      { shipment_id: o.bookedShipmentId },
      { shipment_uuid: o.returnShipmentUuid },
    ];
    const cases: Array<[InjectOptions['method'], string, unknown, Record<string, string> | undefined]> = [];
    for (const query of byShipment) {
      for (const path of [
        '/v5/shipment/details/',
        '/v5-2-0/shipment/details/',
        '/v5/shipments/documents/',
        '/v5/shipments/documents/labels/',
      ]) {
        cases.push(['GET', path, undefined, query]);
      }
      cases.push(['POST', '/v5/shipment/update/', { note: 'hijacked' }, query]);
      cases.push(['POST', '/v5-2-0/shipment/update/', { note: 'hijacked', parcel_recipient_information: 'x' }, query]);
      cases.push(['POST', '/v5/shipment/trigger-adhoc-update/', query, undefined]);
      cases.push(['POST', '/v5/events/create/', { ...query, events: [{ event: 'forged', time: '2026-01-06' }] }, undefined]);
      cases.push(['POST', '/v5/booking/', { ...query }, undefined]);
      cases.push(['POST', '/v5/booking/', { ...query, carrier_reference: 'b-own' }, undefined]);
      cases.push(['POST', '/v5/booking/', { ...query, carrier_reference: 'sb' }, undefined]);
    }
    const listFilters: Array<Record<string, string>> = [
      { shipment_id: o.shipmentId },
      { tracking_number: o.trackingNumber },
      { tracking_number: o.bookingTracking },
      { order_id: o.orderId },
      { carrier_reference: 'sb' },
      { tag: 'vip' },
    ];
    for (const query of listFilters) {
      cases.push(['GET', '/v5/shipment/list/', undefined, query]);
    }
    cases.push(['GET', '/v5/shipment/list/', undefined, undefined]);
    cases.push(['GET', `/v5/shipments/documents/${o.documentUuid}/`, undefined, undefined]);
    cases.push(['GET', `/v5/shipments/documents/${o.secondDocumentUuid}/`, undefined, undefined]);
    for (const body of [{ return_uuid: o.returnUuid }, { return_id: o.returnId }] as Array<Record<string, string>>) {
      cases.push(['POST', '/v5/return/update/', { ...body, comment: 'hijacked' }, undefined]);
      cases.push(['POST', '/v5/return/update/', { ...body, return_status: 'cancelled' }, undefined]);
    }
    cases.push(['GET', '/v5/pudo-locations/', undefined, { carrier_reference: 'sb', postal_code: '10117', country_code: 'DE' }]);
    cases.push(['POST', '/v5/shipment/', { shipment_id: 'ISO-B-1', tracking_number: 'WB4000001', carrier_reference: 'sb' }, undefined]);
    for (const suffix of ['', 'rotate-secret/', 'deliveries/']) {
      const method = suffix === 'rotate-secret/' ? 'POST' : 'GET';
      cases.push([method, `/v5/webhooks/${o.webhookUuid}/${suffix}`, undefined, undefined]);
    }
    cases.push(['PATCH', `/v5/webhooks/${o.webhookUuid}/`, { url: 'https://127.0.0.1:9/b-steals' }, undefined]);
    cases.push(['DELETE', `/v5/webhooks/${o.webhookUuid}/`, undefined, undefined]);
    cases.push(['GET', '/v5/notification/failed-webhook-count/', undefined, { webhook_uuid: o.webhookUuid }]);
    cases.push(['POST', '/v5/notification/resend-failed-webhooks/', { webhook_uuid: o.webhookUuid }, undefined]);

    for (const [method, url, body, query] of cases) {
      const res = await t.call(b.token, method, url, body, query);
      expectRefusedWithoutLeak(
        res,
        `${url} ${JSON.stringify(body ?? {})} ${JSON.stringify(query ?? {})}`,
        `${method} ${url} ${JSON.stringify(query ?? body)}`,
      );
    }

    // What B may list is its own and empty of A.
    for (const url of ['/v5/webhooks/', '/v5/carrier-configs/']) {
      const res = await t.call(b.token, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      for (const value of secrets()) expect(res.body.includes(value), `${url} leaks ${value}`).toBe(false);
      expect(res.body).not.toContain('"sb"');
    }
  });

  it("A's records are exactly as A left them after B's attempts", async () => {
    const details = (await asA('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: owned.shipmentId })).json().data;
    expect(details.note).toBe('note-only-for-a');
    expect(details.all_events.map((e: { event: string }) => e.event)).not.toContain('forged');
    const booked = (await asA('GET', '/v5/shipment/details/', undefined, { shipment_id: owned.bookedShipmentId })).json().data;
    expect(booked.note).toBeNull();
    const webhook = (await asA('GET', `/v5/webhooks/${owned.webhookUuid}/`)).json().data;
    expect(webhook.url).toBe('https://127.0.0.1:9/a-hook');
    const ret = await asA('POST', '/v5/return/update/', { return_uuid: owned.returnUuid });
    expect(ret.statusCode, ret.body).toBe(200);
    expect(ret.json().data).toMatchObject({ return_status: expect.not.stringMatching(/cancelled/), comment: 'Too small' });
    // B has no shipment of its own yet: its list is empty (404), not A's.
    expect((await t.call(b.token, 'GET', '/v5/shipment/list/')).statusCode).toBe(404);
  });

  it('a signed link opens its own document only: another uuid, another kind of file, or a changed query is refused', async () => {
    const docPath = owned.documentUrl.replace(t.config.publicUrl, '');
    expect((await t.app.inject({ method: 'GET', url: docPath })).statusCode).toBe(200);
    const otherDoc = docPath.replace(owned.documentUuid, owned.secondDocumentUuid);
    expect(otherDoc).not.toBe(docPath);
    const swapped = await t.app.inject({ method: 'GET', url: otherDoc });
    expect(swapped.statusCode, swapped.body).toBe(403);
    expect(swapped.json()).toMatchObject({ api_response: 403 });

    const podPath = owned.podUrl.replace(t.config.publicUrl, '');
    expect((await t.app.inject({ method: 'GET', url: podPath })).statusCode).toBe(200);
    for (const uuid of [owned.bookedShipmentUuid, owned.returnShipmentUuid]) {
      const res = await t.app.inject({ method: 'GET', url: podPath.replace(owned.shipmentUuid, uuid) });
      expect(res.statusCode, res.body).toBe(403);
    }
    // The document's signature does not open a proof of delivery, and the other way round.
    const docQuery = docPath.slice(docPath.indexOf('?'));
    const podQuery = podPath.slice(podPath.indexOf('?'));
    expect((await t.app.inject({ method: 'GET', url: `/files/pod/${owned.shipmentUuid}/${docQuery}` })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'GET', url: `/files/documents/${owned.documentUuid}/${podQuery}` })).statusCode).toBe(403);
    // Upper-case uuid, a second signature, no signature: refused.
    for (const url of [
      docPath.replace(owned.documentUuid, owned.documentUuid.toUpperCase()),
      `${docPath}&signature=AAAA`,
      docPath.replace(/signature=[^&]+/, 'signature='),
      docPath.split('?')[0],
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, `${url} → ${res.body}`).not.toBe(200);
      expect(res.statusCode).toBeLessThan(500);
    }
  });

  it('tracking_page_reference values are random: ≥ 128 bits, unique, no shared prefixes, no sequence', async () => {
    const refs: string[] = [owned.trackingPageReference];
    for (let i = 0; i < 40; i++) {
      const uuid = (await t.call(b.token, 'POST', '/v5/shipment/', { shipment_id: `TPR-${i}` })).json().data.shipment_uuid;
      refs.push(
        (await t.call(b.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data.tracking_page_reference,
      );
    }
    expect(new Set(refs).size).toBe(refs.length);
    for (const ref of refs) {
      expect(ref).toMatch(/^[A-Za-z0-9_-]+$/);
      const alphabet = /^[0-9a-f]+$/.test(ref) ? 16 : /^[A-Za-z0-9]+$/.test(ref) ? 62 : 64;
      expect(ref.length * Math.log2(alphabet), ref).toBeGreaterThanOrEqual(128);
    }
    // Consecutive references share no prefix beyond chance, and differ in most positions.
    for (let i = 1; i < refs.length; i++) {
      const [x, y] = [refs[i - 1], refs[i]];
      let prefix = 0;
      while (prefix < x.length && x[prefix] === y[prefix]) prefix++;
      expect(prefix, `${x} / ${y}`).toBeLessThan(5);
      const same = [...x].filter((c, k) => y[k] === c).length;
      expect(same, `${x} / ${y}`).toBeLessThan(x.length / 3);
    }
    // Every character position takes many values across the sample (a counter or a timestamp would not).
    const width = Math.min(...refs.map((r) => r.length));
    for (let k = 0; k < width - 1; k++) {
      expect(new Set(refs.map((r) => r[k])).size, `position ${k}`).toBeGreaterThan(10);
    }
  });
});
