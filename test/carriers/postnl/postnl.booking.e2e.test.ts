import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { CONSUMER_DE, CONSUMER_NL, MERCHANT_NL } from './postnl-book-requests.js';
import { type PostnlLocal, postnlServer, STATUS_PATH } from './postnl-server.js';
import {
  BOOKING_SETTINGS,
  LABEL_PATH,
  LOCATIONS_PATH,
  PostnlShippingRoutes,
  pdfLabel,
  REFERENCE_PATH,
  zplLabel,
} from './postnl-shipping-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: a PostNL configuration with the contract's customer code and
 * number, shipments booked at a local PostNL (barcodes, then labels that confirm): PDF and ZPL labels, a return
 * label, several parcels as one multi-collo shipment, a PostNL point found and booked to, a lost answer that is
 * not confirmed twice, a PostNL refusal as 4030 naming our field, and cancellations.
 */
describe('postnl booking end to end', () => {
  let server: PostnlLocal;
  let postnl: PostnlShippingRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await postnlServer();
    postnl = PostnlShippingRoutes.install(server);
    t = await createTestApp({ env: { WAYBILL_CARRIER_POSTNL_BASE_URL: server.url, WAYBILL_CARRIER_POSTNL_TIMEOUT_SECONDS: '2' } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'postnl', carrier_id: 'postnl', booking: ['outbound', 'return'], settings: { ...BOOKING_SETTINGS } },
        {
          carrier_reference: 'postnl-tracking',
          carrier_id: 'postnl',
          booking: ['outbound'],
          settings: { api_key: BOOKING_SETTINGS.api_key, environment: 'sandbox' },
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
      shipment_id: `PNL-E2E-${++counter}`,
      shipment_reference: `ORDER-${counter}`,
      sender_address: { ...MERCHANT_NL },
      recipient_address: { ...CONSUMER_NL },
      weight: { amount: 1200, unit: 'g' },
      dimensions: { length: 30, width: 20, height: 10, unit: 'cm' },
      shipping_service: '3085',
      description_of_goods: 'Scarves',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', { carrier_reference: 'postnl', ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');
  const lastConfirmed = () => JSON.parse(postnl.labelCalls(true).at(-1)!.body);

  it('lists PostNL’s booking in the carrier catalogue: products, parcels, returns, cancel and PostNL points', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().find((c: { id: string }) => c.id === 'postnl');
    expect(entry).toMatchObject({
      capabilities: { tracking: true, booking: true, pudo: true, push: false },
      max_parcels: 10,
      booking: {
        returns: true,
        cancel: expect.stringContaining('PostNL has no cancel call'),
        lost_answer_lookup: true,
        carrier_validation: true,
      },
      base_url_overridden: true,
    });
    expect(entry.products).toEqual([
      { code: '3085', name: 'Standard shipment', types: ['outbound'], destinations: ['domestic'] },
      { code: '3189', name: 'Signature on delivery', types: ['outbound'], destinations: ['domestic'] },
      { code: '3089', name: 'Signature on delivery + Delivery to stated address only', types: ['outbound'], destinations: ['domestic'] },
      { code: '3385', name: 'Deliver to stated address only', types: ['outbound'], destinations: ['domestic'] },
      { code: '3533', name: 'Pick up at PostNL location + Signature on delivery', types: ['outbound'], destinations: ['domestic'] },
      { code: '4944', name: 'Parcels EU to consumer', types: ['outbound'], destinations: ['eu'] },
      { code: '2285', name: 'Return label (Smart Returns when asked)', types: ['return'], destinations: ['domestic'] },
    ]);
    expect(Object.keys(entry.settings_schema.properties)).toEqual(
      expect.arrayContaining(['api_key', 'customer_code', 'customer_number', 'collection_location', 'label_format', 'barcode_serie']),
    );
    expect(entry.settings_schema.properties.api_key['x-secret']).toBe(true);
  });

  it('books an outbound parcel: a barcode, then a confirming label call; the PDF label and the barcode as tracking number', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const barcode = postnl.confirmed.at(-1)!.barcode;
    expect(barcode).toMatch(/^3SDEVC\d{9}$/);
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: '3085',
      tracking_number: barcode,
      carrier_shipment_identifier: barcode,
    });
    expect(data.carrier_additional_info).toMatchObject({ main_barcode: barcode, label_format: 'pdf' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(content(label).equals(pdfLabel(barcode))).toBe(true);
    const sent = lastConfirmed();
    expect(sent.Message.Printertype).toBe('GraphicFile|PDF');
    expect(sent.Customer).toEqual({ CustomerCode: 'DEVC', CustomerNumber: '11223344' });
    const [parcel] = sent.Shipments;
    expect(parcel.Reference).toMatch(/^WB[0-9A-F]{18}$/);
    expect(parcel.CustomerOrderNumber).toBe(`ORDER-${counter}`);
    expect(parcel.Dimension).toEqual({ Weight: 1200, Length: 300, Width: 200, Height: 100 });
    expect(parcel.Addresses).toEqual([
      {
        AddressType: '01',
        FirstName: 'Daan',
        Name: 'Jansen',
        Countrycode: 'NL',
        Street: 'Keizersgracht',
        HouseNr: '12',
        HouseNrExt: '3',
        Zipcode: '1015CJ',
        City: 'Amsterdam',
      },
      {
        AddressType: '02',
        CompanyName: 'Tulp Textiel BV',
        FirstName: 'Noor',
        Name: 'de Vries',
        Countrycode: 'NL',
        Street: 'Oudegracht',
        HouseNr: '231',
        Zipcode: '3511NK',
        City: 'Utrecht',
      },
    ]);
    expect(parcel.Contacts).toEqual([{ ContactType: '01', Email: 'daan@example.org', TelNr: '+31612345678', SMSNr: '+31612345678' }]);
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(barcode);
  });

  it('ZPL when asked: PostNL’s Zebra printer type, the ZPL as PostNL sent it', async () => {
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.documents[0].file_format).toBe('zpl');
    expect(content(data.documents[0]).toString()).toBe(zplLabel(data.tracking_number));
    expect(lastConfirmed().Message.Printertype).toBe('Zebra|Generic ZPL II 200 dpi');
  });

  it('books three parcels as one multi-collo shipment: a barcode and a label each, grouped under the main barcode', async () => {
    const parcels = [1000, 2000, 3000].map((amount) => ({ weight: { amount, unit: 'g' } }));
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const sent = lastConfirmed().Shipments;
    const barcodes = sent.map((s: { Barcode: string }) => s.Barcode);
    expect(sent.map((s: { Groups: unknown }) => s.Groups)).toEqual(
      barcodes.map((_: string, i: number) => [{ GroupType: '03', GroupSequence: i + 1, GroupCount: 3, MainBarcode: barcodes[0] }]),
    );
    expect(sent.map((s: { Dimension: { Weight: number } }) => s.Dimension.Weight)).toEqual([1000, 2000, 3000]);
    expect(data.tracking_number).toBe(barcodes[0]);
    expect(data.documents.filter((d: { type: string }) => d.type === 'label')).toHaveLength(3);
    expect(data.carrier_additional_info.parcel_tracking_numbers).toEqual(barcodes);
  });

  it('books a return label once the return is approved: product 2285 from the consumer (01) back to the merchant (02), Smart Returns when asked', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-PNL-1' },
      shipment: {
        shipment_id: 'PNL-RET-1',
        line_items: [{ product_name: 'Wool scarf', quantity: 1 }],
        weight: { amount: 500, unit: 'g' },
        shipping_service: '2285',
        from_address: { ...CONSUMER_NL },
        to_address: { ...MERCHANT_NL },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-PNL-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid, carrier_metadata: { smart_returns: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type_of_shipment: 'return', status: 'booked', shipping_service: '2285' });
    const [parcel] = lastConfirmed().Shipments;
    expect(parcel.ProductCodeDelivery).toBe('2285');
    expect(parcel.ProductOptions).toEqual([{ Characteristic: '152', Option: '025' }]);
    expect(parcel.Addresses.find((a: { AddressType: string }) => a.AddressType === '01').City).toBe('Amsterdam');
    expect(parcel.Addresses.find((a: { AddressType: string }) => a.AddressType === '02').City).toBe('Utrecht');
    expect(parcel.Contacts[0].Email).toBe('daan@example.org');
  });

  it('finds PostNL points by postal code and by coordinates, and books a parcel to one (address type 09, product 3533)', async () => {
    const byPostal = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'postnl',
      postal_code: '1015 CJ',
      country_code: 'NL',
      radius_meters: '3000',
    });
    expect(byPostal.statusCode, byPostal.body).toBe(200);
    const locations = byPostal.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['176227', '204301']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'postnl',
      services: ['pick_up'],
      address: { mapped_location_type: 'parcel_shop', postal_code: '1015EA', street_name: 'Prinsengracht', house_number: '118' },
    });
    expect(locations[1].address.mapped_location_type).toBe('parcel_locker');
    const asked = server.to(LOCATIONS_PATH).at(-1)!;
    expect(asked.path).toBe('/shipment/v2_1/locations/nearest');
    expect(asked.query.get('PostalCode')).toBe('1015CJ');

    const byPoint = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'postnl',
      lat: '52.3731',
      lng: '4.8924',
      radius_meters: '3000',
    });
    expect(byPoint.statusCode, byPoint.body).toBe(200);
    expect(server.to(LOCATIONS_PATH).at(-1)!.path).toBe('/shipment/v2_1/locations/nearest/geocode');

    const res = await book({
      shipment_uuid: await shipment({ shipping_service: '3533' }),
      pudo_location_uuid: locations[0].pudo_location_uuid,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(locations[0].pudo_location_uuid);
    const [parcel] = lastConfirmed().Shipments;
    expect(parcel.DeliveryAddress).toBe('09');
    expect(parcel.Addresses.find((a: { AddressType: string }) => a.AddressType === '09')).toEqual({
      AddressType: '09',
      CompanyName: 'Boekhandel Het Grachtje',
      Street: 'Prinsengracht',
      HouseNr: '118',
      Zipcode: '1015EA',
      City: 'Amsterdam',
      Countrycode: 'NL',
    });
  });

  it('a PostNL refusal is a 4030 naming our field, and nothing is confirmed', async () => {
    const uuid = await shipment({ recipient_address: { ...CONSUMER_NL, postal_code: '9999 ZZ' } });
    const before = postnl.confirmed.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('1280203');
    expect(postnl.confirmed.length).toBe(before);
  });

  it('checks a booking with PostNL without announcing it (a label call with confirm=false): valid, or PostNL’s refusal as a 4030 on our field', async () => {
    const before = postnl.confirmed.length;
    const rendering = postnl.labelCalls(false).length;
    const valid = await api('POST', '/v5/booking/validate/', { shipment_uuid: await shipment(), carrier_reference: 'postnl' });
    expect(valid.statusCode, valid.body).toBe(200);
    expect(valid.json().data).toEqual({ valid: true, carrier_checked: true, warnings: [] });
    const uuid = await shipment({ recipient_address: { ...CONSUMER_NL, postal_code: '9999 ZZ' } });
    const invalid = await api('POST', '/v5/booking/validate/', { shipment_uuid: uuid, carrier_reference: 'postnl' });
    expect(invalid.statusCode, invalid.body).toBe(400);
    expect(invalid.json().api_response).toBe('4030');
    expect(invalid.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('1280203');
    expect(postnl.labelCalls(false).length - rendering).toBe(2);
    expect(postnl.confirmed.length).toBe(before);
  });

  it('our own checks come first: no customer code, a product for another use, a point product without a point, abroad', async () => {
    const noContract = await api('POST', '/v5/booking/', { shipment_uuid: await shipment(), carrier_reference: 'postnl-tracking' });
    expect(noContract.statusCode).toBe(400);
    expect(noContract.json().data.errors.carrier_reference[0].standard_error_message).toContain('customer_code');
    const returnProduct = await book({ shipment_uuid: await shipment({ shipping_service: '2285' }) });
    expect(returnProduct.json().data.errors.shipping_service[0].standard_error_message).toContain('3085');
    const noPoint = await book({ shipment_uuid: await shipment({ shipping_service: '3533' }) });
    expect(Object.keys(noPoint.json().data.errors)).toEqual(['pudo_location_uuid']);
    const abroad = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_DE } }) });
    expect(abroad.json().data.errors.recipient_address.country_code[0].standard_error_message).toContain('4944');
    const eu = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_DE }, shipping_service: '4944' }) });
    expect(eu.statusCode, eu.body).toBe(200);
  });

  it('an answer lost after confirming is not confirmed twice: found by its reference, its label rendered again without confirming', async () => {
    const uuid = await shipment();
    const confirming = postnl.labelCalls(true).length;
    const rendering = postnl.labelCalls(false).length;
    postnl.loseNextLabelAnswer = true;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(postnl.labelCalls(true).length - confirming).toBe(1);
    expect(postnl.labelCalls(false).length - rendering).toBe(1);
    const barcode = postnl.confirmed.at(-1)!.barcode;
    expect(res.json().data).toMatchObject({ status: 'booked', tracking_number: barcode });
    expect(content(res.json().data.documents[0]).equals(pdfLabel(barcode))).toBe(true);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(postnl.labelCalls(true).length - confirming).toBe(1);
  });

  it('a confirming call that times out is sent once: the shipment stays reserved until PostNL says it has no such booking', async () => {
    const uuid = await shipment();
    const confirming = postnl.labelCalls(true).length;
    server.once(LABEL_PATH, { hang: true });
    const lost = await book({ shipment_uuid: uuid });
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.body).toMatch(/may have booked/);
    expect(postnl.labelCalls(true).length - confirming).toBe(1);
    expect(server.to(REFERENCE_PATH).at(-1)!.path).toMatch(/^\/shipment\/v2\/status\/reference\/WB[0-9A-F]{18}$/);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/no answer/);
    expect(postnl.labelCalls(true).length - confirming).toBe(1);
    // A minute later the lookup is asked again; PostNL still has nothing under the reference: the shipment is free.
    t.clock.advance(61_000);
    await t.context.worker.runOnce();
    const rebooked = await book({ shipment_uuid: uuid });
    expect(rebooked.statusCode, rebooked.body).toBe(200);
    expect(postnl.labelCalls(true).length - confirming).toBe(2);
  });

  it('cancels a label PostNL has not received; the shipment can be booked again; one PostNL has scanned is refused with the reason', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      api_response: '200',
      data: { booking_uuid: booked.booking_uuid, status: 'cancelled', documents: [] },
    });
    expect(server.to(STATUS_PATH).at(-1)!.path).toBe(`/shipment/v2/status/barcode/${booked.tracking_number}`);

    const rebooked = (await book({ shipment_uuid: uuid })).json().data;
    expect(rebooked.tracking_number).not.toBe(booked.tracking_number);
    postnl.receive(rebooked.tracking_number);
    const refused = await api('POST', '/v5/booking/cancel/', { booking_uuid: rebooked.booking_uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().api_response).toBe('4030');
    expect(JSON.stringify(refused.json())).toContain('PostNL already has parcel');
  });

  it('received nothing PostNL’s models or rules refuse, and never confirmed a barcode twice', () => {
    expect(postnl.faults).toEqual([]);
    const barcodes = postnl.confirmed.map((c) => c.barcode);
    expect(new Set(barcodes).size).toBe(barcodes.length);
    expect(server.to(LABEL_PATH).length).toBe(postnl.labelCalls().length);
  });
});
