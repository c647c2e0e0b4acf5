import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { CONSUMER_AT, CONSUMER_CH, CONSUMER_DE, MERCHANT_DE } from './gls-book-requests.js';
import { glsServer, TRACK_PATH } from './gls-server.js';
import {
  BOOKING_SETTINGS,
  CANCEL_PATH,
  DISTANCE_PATH,
  GlsShipitRoutes,
  pngLabel,
  SHIPMENTS_PATH,
  VALIDATE_PATH,
  zplLabel,
} from './gls-shipit-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: a GLS configuration with a Contact ID pointed at one local GLS
 * by `WAYBILL_CARRIER_GLSGLB_BASE_URL` (token, tracking and ShipIT on the same server), parcels booked with PDF,
 * PNG and ZPL labels, a return label, several parcels, a ParcelShop search and a booking to a ParcelShop, a GLS
 * refusal as 4030 naming our field, a lost answer that is not booked twice, and cancelling through the cancel route.
 */
describe('glsglb booking end to end', () => {
  let server: CarrierServer;
  let gls: GlsShipitRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await glsServer();
    gls = GlsShipitRoutes.install(server);
    t = await createTestApp({ env: { WAYBILL_CARRIER_GLSGLB_BASE_URL: server.url } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'gls', carrier_id: 'glsglb', booking: ['outbound', 'return'], settings: { ...BOOKING_SETTINGS } },
        {
          carrier_reference: 'gls-nocontact',
          carrier_id: 'glsglb',
          booking: ['outbound'],
          settings: { client_id: 'gls-x', client_secret: 'gls-y-secret' },
        },
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
      shipment_id: `GLS-E2E-${++counter}`,
      shipment_reference: `ORDER-${counter}`,
      sender_address: { ...MERCHANT_DE },
      recipient_address: { ...CONSUMER_DE },
      weight: { amount: 1250, unit: 'g' },
      shipping_service: 'PARCEL',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', { carrier_reference: 'gls', ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');
  const lastBody = () => JSON.parse(gls.createCalls().at(-1)!.body);

  it('lists GLS’s booking in the carrier catalogue: products, parcels, returns, cancel and ParcelShops', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().find((c: { id: string }) => c.id === 'glsglb');
    expect(entry).toMatchObject({
      capabilities: { tracking: true, booking: true, pudo: true, push: false },
      max_parcels: 10,
      booking: {
        returns: true,
        cancel: expect.stringContaining('until GLS has scanned'),
        lost_answer_lookup: false,
        carrier_validation: true,
      },
      base_url_overridden: true,
      products: [
        { code: 'PARCEL', types: ['outbound', 'return'] },
        { code: 'EXPRESS', types: ['outbound'] },
      ],
    });
    expect(Object.keys(entry.settings_schema.properties)).toEqual(
      expect.arrayContaining(['client_id', 'client_secret', 'contact_id', 'label_format', 'zpl_resolution']),
    );
    expect(entry.settings_schema.properties.client_secret['x-secret']).toBe(true);
  });

  it('books an outbound parcel: GLS’s PDF label, the parcel number as tracking number, the Track ID to cancel with', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atGls = gls.created.at(-1)!;
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: 'PARCEL',
      tracking_number: atGls.parcelNumbers[0],
      carrier_shipment_identifier: atGls.trackIds[0],
    });
    expect(data.carrier_additional_info).toMatchObject({ track_ids: atGls.trackIds, label_format: 'pdf' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(content(label).subarray(0, 5).toString()).toBe('%PDF-');
    const sent = lastBody().Shipment;
    expect(sent.ShipmentReference[0]).toMatch(/^WB[0-9A-F]{18}$/);
    expect(sent.ShipmentReference[1]).toBe(`ORDER-${counter}`);
    expect(sent.Shipper.AlternativeShipperAddress).toMatchObject({
      Name1: 'Lindenau Versand GmbH',
      Street: 'Lagerstraße',
      StreetNumber: '5',
    });
    expect(sent.Consignee.Address).toMatchObject({
      Name1: 'Ada Brandt',
      Street: 'Birkenallee 12',
      ZIPCode: '20095',
      eMail: 'ada@example.org',
    });
    expect(sent.ShipmentUnit).toEqual([{ ShipmentUnitReference: [sent.ShipmentReference[0]], Weight: 1.25 }]);
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(atGls.parcelNumbers[0]);
  });

  it('ZPL (GLS’s Zebra template) and PNG when asked, kept as GLS sent them', async () => {
    const zpl = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } })).json().data;
    expect(zpl.documents[0].file_format).toBe('zpl');
    expect(content(zpl.documents[0]).toString()).toBe(zplLabel(zpl.tracking_number, 200));
    expect(lastBody().PrintingOptions.ReturnLabels).toEqual({ TemplateSet: 'ZPL_200', LabelFormat: 'ZEBRA' });
    const png = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'png' } })).json().data;
    expect(png.documents[0].file_format).toBe('png');
    expect(content(png.documents[0]).equals(pngLabel(png.tracking_number))).toBe(true);
    expect(PNG.sync.read(content(png.documents[0])).width).toBe(40);
  });

  it('books three parcels as three shipment units: one label and one parcel number each, cancelled together', async () => {
    const parcels = [1000, 2000, 3500].map((amount) => ({ weight: { amount, unit: 'g' } }));
    const res = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_AT } }), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atGls = gls.created.at(-1)!;
    expect(lastBody().Shipment.ShipmentUnit.map((u: { Weight: number }) => u.Weight)).toEqual([1, 2, 3.5]);
    expect(data.documents.filter((d: { type: string }) => d.type === 'label')).toHaveLength(3);
    expect(data.carrier_additional_info.parcel_tracking_numbers).toEqual(atGls.parcelNumbers);
    expect(data.carrier_shipment_identifier).toBe(atGls.trackIds.join(','));
    const cancelled = await api('POST', '/v5/booking/cancel/', { booking_uuid: data.booking_uuid });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(atGls.cancelled).toBe(true);
    expect(
      server
        .to(CANCEL_PATH)
        .slice(-3)
        .map((r) => r.path.split('/').pop()),
    ).toEqual(atGls.trackIds);
  });

  it('books a return label once the return is approved: from the consumer to the merchant', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-GLS-1' },
      shipment: {
        shipment_id: 'GLS-RET-1',
        line_items: [{ product_name: 'Wool socks', quantity: 1 }],
        weight: { amount: 400, unit: 'g' },
        shipping_service: 'PARCEL',
        from_address: { ...CONSUMER_DE },
        to_address: { ...MERCHANT_DE },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-GLS-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type_of_shipment: 'return', status: 'booked' });
    expect(res.json().data.documents[0]).toMatchObject({ type: 'label', file_format: 'pdf' });
    const sent = lastBody().Shipment;
    expect(sent.Consignee.Address).toMatchObject({ Name1: 'Lindenau Versand GmbH', City: 'Feldbrunn' });
    expect(sent.Shipper.AlternativeShipperAddress).toMatchObject({ Name1: 'Ada Brandt', City: 'Hamburg' });
    expect(sent.Shipper.ContactID).toBe(BOOKING_SETTINGS.contact_id);
  });

  it('finds GLS ParcelShops near a point and by postal code, and books a parcel to one of them', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'gls',
      lat: '53.5511',
      lng: '9.9937',
      radius_meters: '3000',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['GLS_DE-2760418301', 'GLS_DE-2760418302']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'glsglb',
      services: ['drop_off', 'pick_up'],
      address: { mapped_location_type: 'parcel_shop', postal_code: '20095', city: 'Hamburg' },
    });
    expect(JSON.parse(server.to(DISTANCE_PATH).at(-1)!.body)).toMatchObject({ Latitude: '53.5511', Longitude: '9.9937', Distance: '3' });
    const byPostalCode = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'gls',
      postal_code: '20095',
      country_code: 'DE',
      radius_meters: '5000',
    });
    expect(byPostalCode.statusCode, byPostalCode.body).toBe(200);
    expect(byPostalCode.json().data.length).toBe(2);

    const res = await book({ shipment_uuid: await shipment(), pudo_location_uuid: locations[0].pudo_location_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(locations[0].pudo_location_uuid);
    expect(lastBody().Shipment.Service).toEqual([
      { ShopDelivery: { ServiceName: 'service_shopdelivery', ParcelShopID: 'GLS_DE-2760418301' } },
    ]);
  });

  it('a GLS refusal is a 4030 naming our field, and nothing is booked', async () => {
    const uuid = await shipment({ recipient_address: { ...CONSUMER_DE, postal_code: '2009' } });
    const before = gls.created.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('consignee.zip');
    expect(gls.created.length).toBe(before);
  });

  it('checks a booking with GLS without booking it: valid, or GLS’s issue as a 4030 on our field; nothing created', async () => {
    const before = gls.created.length;
    const valid = await api('POST', '/v5/booking/validate/', { shipment_uuid: await shipment(), carrier_reference: 'gls' });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().data).toEqual({ valid: true, carrier_checked: true, warnings: [] });
    expect(JSON.parse(server.to(VALIDATE_PATH).at(-1)!.body).Shipment.Product).toBe('PARCEL');
    const uuid = await shipment({ recipient_address: { ...CONSUMER_DE, postal_code: '2009' } });
    const invalid = await api('POST', '/v5/booking/validate/', { shipment_uuid: uuid, carrier_reference: 'gls' });
    expect(invalid.statusCode, invalid.body).toBe(400);
    expect(invalid.json().api_response).toBe('4030');
    expect(invalid.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('ADDRESS_VALID_ZIPCODE');
    const heavy = await api('POST', '/v5/booking/validate/', {
      shipment_uuid: await shipment({ shipping_service: 'EXPRESS', weight: { amount: 30_000, unit: 'g' } }),
      carrier_reference: 'gls',
    });
    expect(heavy.json().data.errors.weight[0].standard_error_message).toContain('ARTICLES_PRODUCT_WEIGHT');
    expect(gls.created.length).toBe(before);
    expect(server.to(VALIDATE_PATH)).toHaveLength(3);
  });

  it('our own checks come first: no Contact ID, an unknown product, a customs border, EXPRESS returns', async () => {
    const noContact = await api('POST', '/v5/booking/', { shipment_uuid: await shipment(), carrier_reference: 'gls-nocontact' });
    expect(noContact.statusCode).toBe(400);
    expect(noContact.json().data.errors.carrier_reference[0].standard_error_message).toContain('contact_id');
    const unknown = await book({ shipment_uuid: await shipment({ shipping_service: 'overnight' }) });
    expect(unknown.json().data.errors.shipping_service[0].standard_error_message).toContain('PARCEL');
    const customs = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_CH } }) });
    expect(Object.keys(customs.json().data.errors)).toEqual(['recipient_address']);
    expect(customs.json().data.errors.recipient_address.country_code[0].standard_error_message).toContain('customs');
  });

  it('an answer lost after sending is not booked twice: one create call, the booking stays reserved until released', async () => {
    const uuid = await shipment();
    const calls = gls.createCalls().length;
    gls.loseNextAnswer = true;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
    expect(res.body).toContain('release');
    expect(gls.createCalls().length - calls).toBe(1);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode, again.body).toBe(400);
    expect(gls.createCalls().length - calls).toBe(1);
    // The merchant checked GLS's portal and releases the reservation: nothing is sent to GLS for it.
    const cancels = server.to(CANCEL_PATH).length;
    const released = await api('POST', '/v5/booking/cancel/', { shipment_uuid: uuid });
    expect(released.statusCode, released.body).toBe(200);
    expect(server.to(CANCEL_PATH).length).toBe(cancels);
    expect((await book({ shipment_uuid: uuid })).statusCode).toBe(200);
    expect(gls.createCalls().length - calls).toBe(2);
  });

  it('cancels a booking through the cancel route; a parcel GLS has scanned is a 4030 with GLS’s answer', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ api_response: '200', data: { booking_uuid: booked.booking_uuid, status: 'cancelled' } });
    expect(server.to(CANCEL_PATH).at(-1)!.path).toBe(`/shipit-farm/v1/backend/rs/shipments/cancel/${booked.carrier_shipment_identifier}`);

    const rebooked = (await book({ shipment_uuid: uuid })).json().data;
    expect(rebooked.tracking_number).not.toBe(booked.tracking_number);
    gls.created.find((s) => s.trackIds.includes(rebooked.carrier_shipment_identifier))!.scanned = true;
    const refused = await api('POST', '/v5/booking/cancel/', { booking_uuid: rebooked.booking_uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().api_response).toBe('4030');
    expect(JSON.stringify(refused.json())).toContain('SCANNED');
  });

  it('received nothing GLS’s documentation refuses; tracking and ShipIT shared one local server and one token', () => {
    expect(gls.faults).toEqual([]);
    const shipit = server.requests.filter((r) => r.path.startsWith('/shipit-farm/'));
    expect(shipit.length).toBeGreaterThan(10);
    expect(server.to('/oauth2/v2/token').length).toBe(1);
    expect(server.to(TRACK_PATH).length).toBe(0);
    expect(server.to(SHIPMENTS_PATH).length).toBe(gls.createCalls().length);
  });
});
