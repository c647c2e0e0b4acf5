import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { CONSUMER_PL, MERCHANT_PL } from './inpost-book-requests.js';
import { API_TOKEN, inpostServer } from './inpost-server.js';
import {
  BOOKING_SETTINGS,
  CREATE_PATH,
  LABEL_PATH,
  POINTS_PATH,
  SHIPMENT_PATH,
  ShipxRoutes,
  UNKNOWN_POST_CODE,
  zplLabel,
} from './shipx-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: an InPost configuration with a ShipX token and organization,
 * shipments booked at a local ShipX (labels as PDF and ZPL, a return, several parcels, a parcel locker found by
 * the PUDO search), a ShipX refusal as 4030 naming our field, a lost answer that is not booked twice, and a
 * cancellation ShipX refuses for a bought label, with its reason.
 */
describe('inpost booking end to end', () => {
  let server: CarrierServer;
  let shipx: ShipxRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await inpostServer();
    shipx = ShipxRoutes.install(server);
    t = await createTestApp({ env: { WAYBILL_CARRIER_INPOST_BASE_URL: server.url } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'inpost', carrier_id: 'inpost', booking: ['outbound', 'return'], settings: { ...BOOKING_SETTINGS } },
        { carrier_reference: 'inpost-tracking', carrier_id: 'inpost', booking: ['outbound'], settings: { api_token: API_TOKEN } },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  let counter = 0;
  async function shipment(extra: Record<string, unknown> = {}): Promise<string> {
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: `INPOST-E2E-${++counter}`,
      shipment_reference: `ZAM-${counter}`,
      sender_address: { ...MERCHANT_PL },
      recipient_address: { ...CONSUMER_PL },
      weight: { amount: 1800, unit: 'g' },
      dimensions: { length: 35, width: 25, height: 12, unit: 'cm' },
      shipping_service: 'inpost_courier_standard',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', { carrier_reference: 'inpost', ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');
  const lastCreate = () => JSON.parse(shipx.createCalls().at(-1)!.body);

  it('lists InPost’s booking in the carrier catalogue: products, parcels, returns, cancel and parcel lockers', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().find((c: { id: string }) => c.id === 'inpost');
    expect(entry).toMatchObject({
      capabilities: { tracking: true, booking: true, pudo: true, push: false },
      max_parcels: 10,
      booking: {
        returns: true,
        cancel: expect.stringContaining('only before ShipX buys the label'),
        lost_answer_lookup: true,
        carrier_validation: false,
      },
      base_url_overridden: true,
    });
    expect(entry.products.map((p: { code: string; types: string[] }) => [p.code, p.types.join('+')])).toEqual([
      ['inpost_locker_standard', 'outbound+return'],
      ['inpost_courier_standard', 'outbound+return'],
      ['inpost_courier_express_1000', 'outbound'],
      ['inpost_courier_express_1200', 'outbound'],
      ['inpost_courier_express_1700', 'outbound'],
    ]);
    expect(Object.keys(entry.settings_schema.properties)).toEqual(
      expect.arrayContaining(['api_token', 'organization_id', 'label_format', 'label_type']),
    );
    expect(entry.settings_schema.properties.api_token['x-secret']).toBe(true);
  });

  it('books a courier parcel: the shipment bought by ShipX, its tracking number, a PDF label served as a document', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atShipx = shipx.shipments.at(-1)!;
    expect(atShipx.status).toBe('confirmed');
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: 'inpost_courier_standard',
      tracking_number: atShipx.tracking_number,
      carrier_shipment_identifier: String(atShipx.id),
    });
    expect(data.carrier_additional_info).toMatchObject({ shipx_shipment_id: String(atShipx.id), label_format: 'pdf' });
    expect(lastCreate().reference).toMatch(/^ZAM-1 \/ WB[0-9A-Z]{18}$/);
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(content(label).toString('latin1').startsWith('%PDF-')).toBe(true);
    const served = await api('GET', `/v5/shipments/documents/${label.document_uuid}/`);
    expect(served.statusCode, served.body).toBe(200);
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(atShipx.tracking_number);
  });

  it('ZPL when the booking asks for it', async () => {
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.documents[0].file_format).toBe('zpl');
    expect(content(data.documents[0]).toString()).toBe(zplLabel(data.tracking_number));
    expect(server.to(LABEL_PATH).at(-1)!.query.get('format')).toBe('Zpl');
  });

  it('books three courier parcels in one shipment: one label file, every parcel’s tracking number', async () => {
    const parcels = [900, 2100, 5000].map((amount) => ({
      weight: { amount, unit: 'g' },
      dimensions: { length: 30, width: 20, height: 15, unit: 'cm' },
    }));
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atShipx = shipx.shipments.at(-1)!;
    expect(lastCreate().parcels).toHaveLength(3);
    expect(data.documents.filter((d: { type: string }) => d.type === 'label')).toHaveLength(1);
    expect(data.carrier_additional_info.parcel_tracking_numbers).toEqual(atShipx.parcels.map((p) => p.tracking_number));
  });

  it('books a return label once the return is approved: a ShipX return shipment from the consumer to the merchant', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-INPOST-1' },
      shipment: {
        shipment_id: 'INPOST-RET-1',
        line_items: [{ product_name: 'Kurtka', quantity: 1 }],
        weight: { amount: 1200, unit: 'g' },
        dimensions: { length: 40, width: 30, height: 10, unit: 'cm' },
        shipping_service: 'inpost_courier_standard',
        from_address: { ...CONSUMER_PL },
        to_address: { ...MERCHANT_PL },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-INPOST-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type_of_shipment: 'return', status: 'booked' });
    expect(lastCreate()).toMatchObject({
      is_return: true,
      sender: { last_name: 'Kowalski', address: { city: 'Warszawa' } },
      receiver: { company_name: MERCHANT_PL.company, address: { city: 'Kraków' } },
    });
  });

  it('finds parcel lockers near a point and books a parcel to one of them', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'inpost',
      lat: '50.0617',
      lng: '19.9373',
      radius_meters: '1500',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['KRA010', 'KRA22M', 'POP-KRA45']);
    expect(locations[0]).toMatchObject({ carrier_id: 'inpost', address: { mapped_location_type: 'parcel_locker', city: 'Kraków' } });
    expect(server.to(POINTS_PATH)).toHaveLength(1);

    const uuid = await shipment({
      shipping_service: 'inpost_locker_standard',
      dimensions: { length: 30, width: 20, height: 8, unit: 'cm' },
    });
    const res = await book({ shipment_uuid: uuid, pudo_location_uuid: locations[1].pudo_location_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      pudo_location_uuid: locations[1].pudo_location_uuid,
      carrier_additional_info: { target_point: 'KRA22M' },
    });
    expect(lastCreate()).toMatchObject({
      service: 'inpost_locker_standard',
      custom_attributes: { target_point: 'KRA22M' },
      receiver: { phone: '600700800', email: CONSUMER_PL.email },
      parcels: [{ dimensions: { length: 300, width: 200, height: 80, unit: 'mm' }, weight: { amount: 1.8, unit: 'kg' } }],
    });
  });

  it('a ShipX refusal is a 4030 naming our field, and nothing is booked', async () => {
    const uuid = await shipment({ recipient_address: { ...CONSUMER_PL, postal_code: UNKNOWN_POST_CODE } });
    const before = shipx.shipments.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('receiver.address.post_code: invalid');
    expect(shipx.shipments.length).toBe(before);
  });

  it('our own checks come first: no organization, a locker without its locker, a courier parcel without its size', async () => {
    const noOrganization = await api('POST', '/v5/booking/', { shipment_uuid: await shipment(), carrier_reference: 'inpost-tracking' });
    expect(noOrganization.statusCode).toBe(400);
    expect(noOrganization.json().data.errors.carrier_reference[0].standard_error_message).toContain('organization_id');
    const noLocker = await book({ shipment_uuid: await shipment({ shipping_service: 'inpost_locker_standard' }) });
    expect(Object.keys(noLocker.json().data.errors)).toEqual(['pudo_location_uuid']);
    const noSize = await book({ shipment_uuid: await shipment({ dimensions: null }) });
    expect(Object.keys(noSize.json().data.errors)).toEqual(['dimensions']);
  });

  it('an answer lost after sending is not booked twice: one create, then the shipment is found by its reference', async () => {
    const uuid = await shipment();
    const creates = shipx.createCalls().length;
    shipx.loseNextCreateAnswer = true;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(shipx.createCalls().length - creates).toBe(1);
    const atShipx = shipx.shipments.at(-1)!;
    expect(res.json().data).toMatchObject({ status: 'booked', tracking_number: atShipx.tracking_number });
    expect(res.json().data.documents[0].file_format).toBe('pdf');
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(shipx.createCalls().length - creates).toBe(1);
  });

  it('cancelling a bought label: ShipX refuses it, and the 4030 says why; the booking stays', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(JSON.stringify(res.json())).toContain('Parcel Manager');
    const deletes = server.requests.filter((r) => r.method === 'DELETE' && SHIPMENT_PATH.test(r.path));
    expect(deletes.at(-1)!.path).toBe(`/v1/shipments/${booked.carrier_shipment_identifier}`);
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(booked.tracking_number);
  });

  it('received nothing ShipX’s forms or rules refuse, and never a create twice for one booking', () => {
    expect(shipx.faults).toEqual([]);
    const references = shipx.createCalls().map((call) => JSON.parse(call.body).reference);
    expect(new Set(references).size).toBe(references.length);
    expect(server.to(CREATE_PATH).filter((r) => r.method === 'POST').length).toBe(shipx.createCalls().length);
  });
});
