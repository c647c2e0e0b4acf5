import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../documents/pdf-text.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { bookableShipment, createShipment } from './fixtures.js';

describe('POST /v5/booking/: what works', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [{ carrier_reference: 'sb', booking: ['outbound', 'return'], settings: { poll_interval_seconds: 60 } }],
    });
  });
  afterAll(() => t.close());

  const book = (body: Record<string, unknown>) => t.call(acct.token, 'POST', '/v5/booking/', body);

  it('books an open shipment, returns every Booking field and a real PDF label, and starts tracking', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('BK-1'));
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb', carrier_metadata: { reference: 'PO-7' } });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.api_response).toBe('200');
    const data = body.data;
    expect(Object.keys(data).sort()).toEqual(
      [
        'booking_uuid',
        'carrier_additional_info',
        'carrier_reference',
        'carrier_shipment_identifier',
        'created_date',
        'documents',
        'pudo_location_uuid',
        'pudo_locations',
        'shipment_id',
        'shipment_uuid',
        'shipping_service',
        'status',
        'tracking_number',
        'type_of_shipment',
        'updated_date',
      ].sort(),
    );
    expect(data).toMatchObject({
      shipment_uuid: uuid,
      shipment_id: 'BK-1',
      carrier_reference: 'sb',
      status: 'booked',
      type_of_shipment: 'outbound',
      pudo_locations: [],
    });
    expect(data.tracking_number).toMatch(/^WB8\d{9}$/);
    expect(data.carrier_additional_info).toMatchObject({ reference: 'PO-7', label_format: 'pdf' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(label.download_url).toMatch(/^https:\/\/waybill\.test\/files\/documents\/.+\?expires=\d+&signature=/);
    const pdf = Buffer.from(label.base64_content, 'base64');
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await pdfText(pdf)).toContain(data.tracking_number);

    const details = (await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(data.tracking_number);
    expect(details.documents).toEqual([expect.objectContaining({ document_uuid: label.document_uuid, type: 'label' })]);
    await t.context.worker.runOnce();
    const tracked = (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(tracked.all_events.length).toBeGreaterThan(0);
  });

  it("uses the shipment's own carrier when the request names none, and renders ZPL on request", async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('BK-2', { carrier_reference: 'sb' }));
    const res = await book({ shipment_id: 'BK-2', carrier_metadata: { label_format: 'zpl' } });
    expect(res.statusCode, res.body).toBe(200);
    const [label] = res.json().data.documents;
    expect(label.file_format).toBe('zpl');
    const zpl = Buffer.from(label.base64_content, 'base64').toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl).toContain('^BC');
    expect(zpl).toContain(res.json().data.tracking_number);
    expect(res.json().data.shipment_uuid).toBe(uuid);
  });

  it('answers 299 while the label is generated, then serves it through the document endpoints', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('BK-LATE', { shipping_service: 'sandbox_delayed_label' }));
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'sb' });
    expect(res.statusCode, res.body).toBe(299);
    expect(res.json().api_response).toBe('299');
    const [label] = res.json().data.documents;
    expect(label.download_url).toBeNull();
    expect(label.base64_content).toBeNull();

    const early = (await t.call(acct.token, 'GET', `/v5/shipments/documents/${label.document_uuid}/`)).json().data;
    expect(early.base64_content).toBeNull();
    await t.context.worker.runOnce();
    expect((await t.call(acct.token, 'GET', `/v5/shipments/documents/${label.document_uuid}/`)).json().data.base64_content).toBeNull();

    t.clock.advance(6_000);
    await t.context.worker.drain();
    const ready = await t.call(acct.token, 'GET', `/v5/shipments/documents/${label.document_uuid}/`);
    expect(ready.statusCode).toBe(200);
    const doc = ready.json().data;
    expect(doc.download_url).toMatch(/\/files\/documents\//);
    expect(await pdfText(Buffer.from(doc.base64_content, 'base64'))).toContain(res.json().data.tracking_number);

    const labels = (await t.call(acct.token, 'GET', '/v5/shipments/documents/labels/', undefined, { shipment_uuid: uuid })).json().data;
    expect(labels).toHaveLength(1);
    expect(labels[0].download_url).toBe(doc.download_url.replace(/expires=\d+&signature=[^&]+/, labels[0].download_url.split('?')[1]));
    expect(labels[0].base64_content).toBeUndefined();
    const all = (await t.call(acct.token, 'GET', '/v5/shipments/documents/', undefined, { shipment_id: 'BK-LATE' })).json().data;
    expect(all.map((d: { document_uuid: string }) => d.document_uuid)).toEqual([label.document_uuid]);
  });

  it('serves a signed download without a token, and refuses a tampered or expired link', async () => {
    const uuid = await createShipment(t, acct.token, bookableShipment('BK-DL'));
    const label = (await book({ shipment_uuid: uuid, carrier_reference: 'sb' })).json().data.documents[0];
    const path = label.download_url.replace('https://waybill.test', '');
    const ok = await t.app.inject({ method: 'GET', url: path });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const tampered = path.replace(/signature=./, (m: string) => `signature=${m.endsWith('A') ? 'B' : 'A'}`);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const otherDocument = path.replace(label.document_uuid, '00000000-0000-4000-8000-000000000000');
    expect((await t.app.inject({ method: 'GET', url: otherDocument })).statusCode).toBe(403);
    const unsigned = path.split('?')[0];
    expect((await t.app.inject({ method: 'GET', url: unsigned })).statusCode).toBe(403);

    t.clock.advance(24 * 60 * 60_000 + 1000);
    const expired = await t.app.inject({ method: 'GET', url: path });
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toMatch(/expired/);
  });

  it('books a return label once the return is approved, and moves the ticket', async () => {
    const created = await t.as(acct)('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-BK' },
      shipment: {
        shipment_id: 'RET-BK',
        line_items: [{ product_name: 'Shirt', quantity: 1 }],
        weight: { amount: 400, unit: 'g' },
        from_address: { first_name: 'Grace', line1: '1 Rue de Rivoli', city: 'Paris', postal_code: '75001', country_code: 'FR' },
        to_address: { company: 'Acme Returns', line1: 'Lagerstraße 5', city: 'Hamburg', postal_code: '20095', country_code: 'DE' },
      },
    });
    const shipmentUuid = created.json().data.shipment.shipment_uuid;
    const early = await t.as(acct)('POST', '/v5/booking/', { shipment_uuid: shipmentUuid, carrier_reference: 'sb' });
    expect(early.statusCode).toBe(400);
    expect(early.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/approved/);

    await t.as(acct)('POST', '/v5/return/update/', { return_id: 'RMA-BK', return_status: 'approved' });
    const res = await t.as(acct)('POST', '/v5/booking/', { shipment_uuid: shipmentUuid, carrier_reference: 'sb' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.type_of_shipment).toBe('return');
    const details = (await t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: shipmentUuid })).json().data;
    expect(details.returns).toMatchObject({ return_status: 'carrier booking pending', booking_id: res.json().data.booking_uuid });
  });
});
