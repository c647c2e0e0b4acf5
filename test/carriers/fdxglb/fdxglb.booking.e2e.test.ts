import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { CarrierServer } from '../support/carrier-server.js';
import { CONSUMER_CA, CONSUMER_US, MERCHANT_US, MUG } from './fedex-book-requests.js';
import { pngLabel, zplLabel } from './fedex-labels.js';
import {
  BOOKING_SETTINGS,
  CANCEL_PATH,
  FedexShipRoutes,
  LOCATIONS_PATH,
  SHIP_CLIENT_ID,
  SHIP_PATH,
  SPLIT_SETTINGS,
  TOKEN_PATH,
  VALIDATE_PATH,
} from './fedex-ship-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: a FedEx configuration with an account number and the Ship API in
 * a project of its own, pointed at one local FedEx by `WAYBILL_CARRIER_FDXGLB_BASE_URL` (OAuth, Ship, Locations):
 * labels in PDF, PNG and ZPL, FedEx's validation without booking, several parcels, the commercial invoice across a border, a return label, a location
 * search and a booking to a location, a FedEx refusal as 4030 naming our field, a lost answer that is not booked
 * twice, cancelling through the cancel route, and the catalogue entry.
 */
describe('fdxglb booking end to end', () => {
  let server: CarrierServer;
  let fedex: FedexShipRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await new CarrierServer().start();
    fedex = FedexShipRoutes.install(server, { shipClientId: SHIP_CLIENT_ID });
    t = await createTestApp({ env: { WAYBILL_CARRIER_FDXGLB_BASE_URL: server.url } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        {
          carrier_reference: 'fedex',
          carrier_id: 'fdxglb',
          booking: ['outbound', 'return'],
          settings: { ...SPLIT_SETTINGS, search_country_code: 'US' },
        },
        {
          carrier_reference: 'fedex-noaccount',
          carrier_id: 'fdxglb',
          booking: ['outbound'],
          settings: { client_id: 'fdx-x', client_secret: 'fdx-y-secret' },
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
      shipment_id: `FDX-E2E-${++counter}`,
      shipment_reference: `ORDER-${counter}`,
      sender_address: { ...MERCHANT_US },
      recipient_address: { ...CONSUMER_US },
      weight: { amount: 2500, unit: 'g' },
      dimensions: { length: 40, width: 30, height: 20, unit: 'cm' },
      shipping_service: 'FEDEX_GROUND',
      description_of_goods: 'Mugs',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', { carrier_reference: 'fedex', ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');

  it('lists FedEx’s booking in the carrier catalogue: products, parcels, returns, cancel and locations', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().find((c: { id: string }) => c.id === 'fdxglb');
    expect(entry).toMatchObject({
      capabilities: { tracking: true, booking: true, pudo: true, push: false },
      max_parcels: 40,
      booking: { returns: true, cancel: expect.stringContaining('Cancel Shipment'), lost_answer_lookup: false, carrier_validation: true },
      base_url_overridden: true,
    });
    expect(entry.products).toContainEqual(expect.objectContaining({ code: 'FEDEX_GROUND', types: ['outbound', 'return'] }));
    expect(entry.products).toContainEqual(expect.objectContaining({ code: 'GROUND_HOME_DELIVERY', types: ['outbound'] }));
    expect(Object.keys(entry.settings_schema.properties)).toEqual(
      expect.arrayContaining(['client_id', 'client_secret', 'account_number', 'ship_client_id', 'ship_client_secret', 'label_format']),
    );
    expect(entry.settings_schema.properties.ship_client_secret['x-secret']).toBe(true);
  });

  it('books an outbound parcel: FedEx’s PDF label, the master tracking number, served as a document', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atFedex = fedex.booked.at(-1)!;
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: 'FEDEX_GROUND',
      tracking_number: atFedex.master,
      carrier_shipment_identifier: atFedex.master,
    });
    expect(data.carrier_additional_info).toMatchObject({ master_tracking_number: atFedex.master, label_format: 'pdf' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(content(label).equals(atFedex.labels[0])).toBe(true);
    const served = await api('GET', `/v5/shipments/documents/${label.document_uuid}/`);
    expect(served.statusCode, served.body).toBe(200);
    expect(JSON.stringify(served.json())).toContain(label.base64_content.slice(0, 64));
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(atFedex.master);
    expect(atFedex.references[0]).toMatch(/^WB[0-9A-F]{18}$/);
    expect(atFedex.references[1]).toBe(`ORDER-${counter}`);
  });

  it('PNG and ZPL when asked, as FedEx rendered them', async () => {
    const png = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'png' } })).json().data;
    expect(png.documents[0].file_format).toBe('png');
    expect(content(png.documents[0]).equals(pngLabel(png.tracking_number))).toBe(true);
    const zpl = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } })).json().data;
    expect(zpl.documents[0].file_format).toBe('zpl');
    expect(content(zpl.documents[0]).toString()).toBe(zplLabel(zpl.tracking_number));
  });

  it('books three parcels as one FedEx shipment: one label per piece, the master number as tracking number', async () => {
    const parcels = [1000, 2000, 3000].map((amount) => ({ weight: { amount, unit: 'g' } }));
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atFedex = fedex.booked.at(-1)!;
    expect(atFedex.pieces).toHaveLength(3);
    expect(data.tracking_number).toBe(atFedex.master);
    expect(data.documents.filter((d: { type: string }) => d.type === 'label')).toHaveLength(3);
    expect(data.carrier_additional_info.parcel_tracking_numbers).toEqual(atFedex.pieces);
  });

  it('a parcel to Canada carries FedEx’s commercial invoice as a customs document', async () => {
    const res = await book({
      shipment_uuid: await shipment({
        recipient_address: { ...CONSUMER_CA },
        shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY',
        line_items: [MUG],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.documents.map((d: { type: string; file_format: string }) => [d.type, d.file_format])).toEqual([
      ['label', 'pdf'],
      ['customs_declaration', 'pdf'],
    ]);
    expect(fedex.lastShipment().customsClearanceDetail.commodities[0]).toMatchObject({
      harmonizedCode: '691200',
      countryOfManufacture: 'US',
      quantity: 3,
      customsValue: { amount: 42, currency: 'USD' },
    });
  });

  it('books a return label once the return is approved: the consumer ships it back to the merchant', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-FDX-1' },
      shipment: {
        shipment_id: 'FDX-RET-1',
        line_items: [{ product_name: 'Stoneware mug', quantity: 1 }],
        weight: { amount: 900, unit: 'g' },
        shipping_service: 'FEDEX_GROUND',
        from_address: { ...CONSUMER_US },
        to_address: { ...MERCHANT_US },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-FDX-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type_of_shipment: 'return', status: 'booked' });
    const sent = fedex.lastShipment();
    expect(sent.shipmentSpecialServices).toEqual({
      specialServiceTypes: ['RETURN_SHIPMENT'],
      returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' },
    });
    expect(sent.shipper.address.city).toBe('Plainfield');
    expect(sent.recipients[0].address.city).toBe('Memphis');
  });

  it('finds FedEx locations by postal code and by point, and books a parcel to one of them (Hold at Location)', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'fedex',
      postal_code: '30303',
      country_code: 'US',
      radius_meters: '8000',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['ATLWB', 'ATLWC', 'ATLWD']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'fdxglb',
      services: ['drop_off', 'pick_up'],
      address: { mapped_location_type: 'parcel_shop', postal_code: '30303', city: 'ATLANTA' },
    });
    expect(JSON.parse(server.to(LOCATIONS_PATH).at(-1)!.body).location).toEqual({ address: { postalCode: '30303', countryCode: 'US' } });
    const byPoint = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'fedex',
      lat: '33.7537',
      lng: '-84.3863',
      radius_meters: '5000',
    });
    expect(byPoint.statusCode, byPoint.body).toBe(200);
    expect(byPoint.json().data.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['ATLWB', 'ATLWC', 'ATLWD']);
    expect(JSON.parse(server.to(LOCATIONS_PATH).at(-1)!.body)).toMatchObject({
      locationSearchCriterion: 'GEOGRAPHIC_COORDINATES',
      location: { address: { countryCode: 'US' }, longLat: { latitude: '33.7537', longitude: '-84.3863' } },
    });
    // The query's country_code, when given with the point, is the one FedEx searches in (over the configuration's).
    const withCountry = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'fedex',
      lat: '45.5019',
      lng: '-73.5674',
      country_code: 'CA',
    });
    expect(withCountry.statusCode, withCountry.body).toBe(200);
    expect(JSON.parse(server.to(LOCATIONS_PATH).at(-1)!.body).location.address).toEqual({ countryCode: 'CA' });

    const res = await book({
      shipment_uuid: await shipment({
        recipient_address: { ...CONSUMER_US, line1: '1 Peachtree Ctr', city: 'Atlanta', state_or_province: 'GA', postal_code: '30303' },
      }),
      pudo_location_uuid: locations[0].pudo_location_uuid,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(locations[0].pudo_location_uuid);
    expect(fedex.lastShipment().shipmentSpecialServices).toMatchObject({
      specialServiceTypes: ['HOLD_AT_LOCATION'],
      holdAtLocationDetail: { locationId: 'ATLWB', locationType: 'FEDEX_OFFICE' },
    });
  });

  it('a FedEx refusal is a 4030 naming our field, and nothing is booked', async () => {
    const uuid = await shipment({ recipient_address: { ...CONSUMER_US, postal_code: '0700' } });
    const before = fedex.booked.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('RECIPIENT.POSTALSTATE.MISMATCH');
    expect(fedex.booked.length).toBe(before);
  });

  it('validates a shipment with FedEx without booking it: valid, and FedEx’s refusal as 4030 on our field', async () => {
    const before = fedex.booked.length;
    const valid = await api('POST', '/v5/booking/validate/', { shipment_uuid: await shipment(), carrier_reference: 'fedex' });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().data).toEqual({ valid: true, carrier_checked: true, warnings: [] });
    const uuid = await shipment({ recipient_address: { ...CONSUMER_US, postal_code: '0700' } });
    const invalid = await api('POST', '/v5/booking/validate/', { shipment_uuid: uuid, carrier_reference: 'fedex' });
    expect(invalid.statusCode, invalid.body).toBe(400);
    expect(invalid.json().api_response).toBe('4030');
    expect(invalid.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('RECIPIENT.POSTALSTATE.MISMATCH');
    expect(server.to(VALIDATE_PATH)).toHaveLength(2);
    expect(fedex.booked.length).toBe(before);
  });

  it('our own checks come first: no account number, an unknown service, missing customs data, a missing phone', async () => {
    const noAccount = await api('POST', '/v5/booking/', { shipment_uuid: await shipment(), carrier_reference: 'fedex-noaccount' });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().data.errors.carrier_reference[0].standard_error_message).toContain('account_number');
    const unknown = await book({ shipment_uuid: await shipment({ shipping_service: 'overnight' }) });
    expect(unknown.json().data.errors.shipping_service[0].standard_error_message).toContain('FEDEX_GROUND');
    const customs = await book({
      shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_CA }, shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY' }),
    });
    expect(Object.keys(customs.json().data.errors)).toEqual(['line_items']);
    const { phone: _phone, ...noPhone } = CONSUMER_US;
    const phone = await book({ shipment_uuid: await shipment({ recipient_address: noPhone }) });
    expect(phone.statusCode).toBe(400);
    expect(Object.keys(phone.json().data.errors.recipient_address)).toEqual(['phone']);
  });

  it('an answer lost after sending is not booked twice: one ship call, the booking stays reserved until released', async () => {
    const uuid = await shipment();
    const calls = fedex.shipCalls().length;
    fedex.loseNextShipAnswer = true;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(500);
    expect(res.body).toContain('release');
    expect(fedex.shipCalls().length - calls).toBe(1);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode, again.body).toBe(400);
    expect(fedex.shipCalls().length - calls).toBe(1);
    // The merchant checked FedEx Ship Manager and releases the reservation: nothing is sent to FedEx for it.
    const cancels = server.to(CANCEL_PATH).length;
    const released = await api('POST', '/v5/booking/cancel/', { shipment_uuid: uuid });
    expect(released.statusCode, released.body).toBe(200);
    expect(server.to(CANCEL_PATH).length).toBe(cancels);
    expect((await book({ shipment_uuid: uuid })).statusCode).toBe(200);
    expect(fedex.shipCalls().length - calls).toBe(2);
  });

  it('cancels a booking through the cancel route; one FedEx no longer cancels is a 4030 with FedEx’s answer', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      api_response: '200',
      data: { booking_uuid: booked.booking_uuid, status: 'cancelled', documents: [] },
    });
    expect(JSON.parse(server.to(CANCEL_PATH).at(-1)!.body)).toMatchObject({
      trackingNumber: booked.carrier_shipment_identifier,
      deletionControl: 'DELETE_ALL_PACKAGES',
    });
    expect(fedex.booked.find((s) => s.master === booked.carrier_shipment_identifier)?.cancelled).toBe(true);

    const rebooked = (await book({ shipment_uuid: uuid })).json().data;
    expect(rebooked.tracking_number).not.toBe(booked.tracking_number);
    // Cancelled at FedEx meanwhile (in FedEx Ship Manager): FedEx no longer cancels it.
    fedex.booked.find((s) => s.master === rebooked.carrier_shipment_identifier)!.cancelled = true;
    const refused = await api('POST', '/v5/booking/cancel/', { booking_uuid: rebooked.booking_uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().api_response).toBe('4030');
    expect(JSON.stringify(refused.json())).toContain('cancelled already');
  });

  it('received nothing FedEx’s documentation refuses; Ship and Locations used the Ship project’s token only', () => {
    expect(fedex.faults).toEqual([]);
    const references = fedex
      .shipCalls()
      .map((call) => JSON.parse(call.body).requestedShipment.requestedPackageLineItems[0].customerReferences[0].value);
    expect(new Set(references).size).toBe(references.length);
    expect(server.to(SHIP_PATH).length).toBe(fedex.shipCalls().length);
    const clients = new Set(server.to(TOKEN_PATH).map((r) => new URLSearchParams(r.body).get('client_id')));
    expect(clients).toEqual(new Set([SHIP_CLIENT_ID]));
    expect(BOOKING_SETTINGS.account_number).toBe(SPLIT_SETTINGS.account_number);
  });
});
