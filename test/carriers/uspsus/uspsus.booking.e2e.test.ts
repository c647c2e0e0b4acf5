import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { CONSUMER, MERCHANT } from './usps-book-requests.js';
import {
  BOOKING_SETTINGS,
  CANCEL_PATH,
  LABEL_PATH,
  LOCATIONS_PATH,
  PAYMENT_PATH,
  RETURN_LABEL_PATH,
  UspsLabelRoutes,
  zplLabel,
} from './usps-labels-server.js';
import { TOKEN_PATH, uspsServer } from './usps-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: a USPS configuration with its payment account, labels made at
 * a local USPS (PDF, PNG, ZPL, USPS's multipart answer), a return label, one parcel per label, a USPS refusal
 * as 4030 naming our field, a lost answer that is not sent twice, a cancellation, and a parcel held for pickup
 * at a Post Office found through the locator.
 */
describe('uspsus booking end to end', () => {
  let server: CarrierServer;
  let usps: UspsLabelRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await uspsServer();
    usps = UspsLabelRoutes.install(server);
    t = await createTestApp({ env: { WAYBILL_CARRIER_USPSUS_BASE_URL: server.url, WAYBILL_CARRIER_USPSUS_TIMEOUT_SECONDS: '2' } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'usps', carrier_id: 'uspsus', booking: ['outbound', 'return'], settings: { ...BOOKING_SETTINGS } },
        {
          carrier_reference: 'usps-nopay',
          carrier_id: 'uspsus',
          booking: ['outbound'],
          settings: { client_id: BOOKING_SETTINGS.client_id, client_secret: BOOKING_SETTINGS.client_secret },
        },
        {
          carrier_reference: 'usps-wrongaccount',
          carrier_id: 'uspsus',
          booking: ['outbound'],
          settings: { ...BOOKING_SETTINGS, account_number: '999' },
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
      shipment_id: `USPS-E2E-${++counter}`,
      shipment_reference: `ORDER-${counter}`,
      sender_address: { ...MERCHANT },
      recipient_address: { ...CONSUMER },
      weight: { amount: 1250, unit: 'g' },
      dimensions: { length: 30, width: 20, height: 10, unit: 'cm' },
      shipping_service: 'USPS_GROUND_ADVANTAGE',
      description_of_goods: 'Socks',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>, reference = 'usps') =>
    api('POST', '/v5/booking/', { carrier_reference: reference, ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');
  const sent = (path: string) => JSON.parse(server.to(path).at(-1)!.body);

  it('lists USPS’s booking in the carrier catalogue: mail classes, one parcel per label, returns, Post Offices', async () => {
    const res = await t.admin('GET', '/admin/v1/carriers/');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().find((c: { id: string }) => c.id === 'uspsus');
    expect(entry).toMatchObject({
      capabilities: { tracking: true, booking: true, pudo: true, push: false },
      max_parcels: 1,
      booking: { returns: true, cancel: expect.stringContaining('refund'), lost_answer_lookup: false, carrier_validation: false },
      base_url_overridden: true,
    });
    expect(entry.products.map((p: { code: string; types: string[] }) => [p.code, p.types.join('+')])).toEqual([
      ['USPS_GROUND_ADVANTAGE', 'outbound+return'],
      ['PRIORITY_MAIL', 'outbound+return'],
      ['PRIORITY_MAIL_EXPRESS', 'outbound+return'],
      ['MEDIA_MAIL', 'outbound'],
      ['LIBRARY_MAIL', 'outbound'],
      ['BOUND_PRINTED_MATTER', 'outbound'],
    ]);
    expect(Object.keys(entry.settings_schema.properties)).toEqual(
      expect.arrayContaining([
        'client_id',
        'client_secret',
        'crid',
        'mid',
        'manifest_mid',
        'account_type',
        'account_number',
        'permit_zip',
        'label_format',
      ]),
    );
  });

  it('books an outbound label: USPS’s PDF, its tracking number, postage in carrier_additional_info; one payment authorization for every label', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atUsps = usps.labels.at(-1)!;
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: 'USPS_GROUND_ADVANTAGE',
      tracking_number: atUsps.trackingNumber,
      carrier_shipment_identifier: atUsps.trackingNumber,
    });
    expect(data.carrier_additional_info).toMatchObject({ label_format: 'pdf', postage: { amount: 7.25, currency: 'USD' }, zone: '05' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    expect(content(label).toString('latin1').startsWith('%PDF-')).toBe(true);
    const request = sent(LABEL_PATH);
    expect(request.imageInfo).toMatchObject({ imageType: 'PDF', labelType: '4X6LABEL' });
    expect(request.packageDescription).toMatchObject({
      mailClass: 'USPS_GROUND_ADVANTAGE',
      rateIndicator: 'SP',
      weightUOM: 'lb',
      weight: 2.76,
      dimensionsUOM: 'in',
      length: 11.9,
      width: 7.9,
      height: 4,
      processingCategory: 'MACHINABLE',
      destinationEntryFacilityType: 'NONE',
    });
    expect(request.toAddress).toMatchObject({
      streetAddress: '12 Cedar Lane',
      secondaryAddress: 'Apt 4',
      ZIPCode: '07001',
      ZIPPlus4: '1234',
      phone: '2015550188',
    });
    expect(atUsps.references[0]).toMatch(/^WB[0-9A-F]{18}$/);
    expect(atUsps.references[1]).toBe(`ORDER-${counter}`);
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(atUsps.trackingNumber);

    expect((await book({ shipment_uuid: await shipment() })).statusCode).toBe(200);
    expect(server.to(PAYMENT_PATH)).toHaveLength(1);
    expect(server.to(TOKEN_PATH)).toHaveLength(1);
    expect(sent(PAYMENT_PATH).roles).toEqual([
      { roleName: 'PAYER', CRID: '56982563', MID: '904128936', manifestMID: '904128936', accountType: 'EPS', accountNumber: '1000405525' },
      { roleName: 'LABEL_OWNER', CRID: '56982563', MID: '904128936', manifestMID: '904128936' },
    ]);
    for (const call of usps.labelCalls()) expect(usps.paymentTokens).toContain(call.headers['x-payment-authorization-token']);
  });

  it('PNG and ZPL as USPS renders them, and USPS’s default multipart answer read as well', async () => {
    const png = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'png' } })).json().data;
    expect(png.documents[0].file_format).toBe('png');
    expect(PNG.sync.read(content(png.documents[0])).width).toBe(8);
    expect(sent(LABEL_PATH).imageInfo.imageType).toBe('PNG');
    const zpl = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } })).json().data;
    expect(sent(LABEL_PATH).imageInfo.imageType).toBe('ZPL203DPI');
    expect(zpl.documents[0].file_format).toBe('zpl');
    expect(content(zpl.documents[0]).toString()).toBe(zplLabel(zpl.tracking_number));
    usps.multipart = true;
    try {
      const res = await book({ shipment_uuid: await shipment() });
      expect(res.statusCode, res.body).toBe(200);
      const data = res.json().data;
      expect(data.tracking_number).toBe(usps.labels.at(-1)!.trackingNumber);
      expect(data.carrier_additional_info.postage).toEqual({ amount: 7.25, currency: 'USD' });
      expect(content(data.documents[0]).toString('latin1').startsWith('%PDF-')).toBe(true);
    } finally {
      usps.multipart = false;
    }
  });

  it('books a return label once the return is approved: USPS Ground Advantage Return Service to the merchant', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-USPS-1' },
      shipment: {
        shipment_id: 'USPS-RET-1',
        line_items: [{ product_name: 'Wool socks', quantity: 1 }],
        weight: { amount: 400, unit: 'g' },
        dimensions: { length: 25, width: 18, height: 5, unit: 'cm' },
        shipping_service: 'USPS_GROUND_ADVANTAGE',
        from_address: { ...CONSUMER },
        to_address: { ...MERCHANT },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-USPS-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      type_of_shipment: 'return',
      status: 'booked',
      tracking_number: usps.labels.at(-1)!.trackingNumber,
    });
    expect(usps.labels.at(-1)!.isReturn).toBe(true);
    const request = sent(RETURN_LABEL_PATH);
    expect(request.packageDescription.mailClass).toBe('USPS_GROUND_ADVANTAGE_RETURN_SERVICE');
    expect(request.fromAddress.city).toBe('Cedar Vale');
    expect(request.toAddress.city).toBe('Maple Ridge');
    expect(res.json().data.documents[0].file_format).toBe('pdf');
  });

  it('one parcel per label: several parcels are a 4030 on carrier_metadata.parcels, and nothing is sent', async () => {
    const before = usps.labelCalls().length;
    const parcels = [1000, 2000].map((amount) => ({
      weight: { amount, unit: 'g' },
      dimensions: { length: 20, width: 15, height: 10, unit: 'cm' },
    }));
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.carrier_metadata.parcels[0].standard_error_message).toContain('at most 1 parcel');
    expect(usps.labelCalls().length).toBe(before);
  });

  it('a USPS refusal is a 4030 naming our field, and nothing is booked', async () => {
    const uuid = await shipment({ recipient_address: { ...CONSUMER, postal_code: '00012' } });
    const before = usps.labels.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('Address Not Found');
    expect(usps.labels.length).toBe(before);
  });

  it('our own checks come first: no payment account, an unknown mail class, a parcel over 70 lb, no dimensions', async () => {
    const noPay = await book({ shipment_uuid: await shipment() }, 'usps-nopay');
    expect(noPay.statusCode).toBe(400);
    expect(noPay.json().data.errors.carrier_reference[0].standard_error_message).toContain('crid, mid, account_number');
    const unknown = await book({ shipment_uuid: await shipment({ shipping_service: 'FIRST_CLASS' }) });
    expect(unknown.json().data.errors.shipping_service[0].standard_error_message).toContain('PRIORITY_MAIL');
    const heavy = await book({ shipment_uuid: await shipment({ weight: { amount: 35_000, unit: 'g' } }) });
    expect(heavy.json().data.errors.weight[0].standard_error_message).toContain('70 lb');
    const flat = await book({ shipment_uuid: await shipment({ dimensions: null }) });
    expect(Object.keys(flat.json().data.errors)).toEqual(['dimensions']);
  });

  it('a payment account USPS refuses is a 4030 on carrier_reference, and no label is asked for', async () => {
    const before = usps.labelCalls().length;
    const res = await book({ shipment_uuid: await shipment() }, 'usps-wrongaccount');
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.carrier_reference[0].standard_error_message).toContain('not linked to this CRID');
    expect(usps.labelCalls().length).toBe(before);
  });

  it('an answer lost after sending is not sent twice: the booking stays reserved until the merchant releases it', async () => {
    const uuid = await shipment();
    const calls = usps.labelCalls().length;
    usps.loseNextAnswer = true;
    const lost = await book({ shipment_uuid: uuid });
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.body).toContain('release the reservation');
    expect(usps.labelCalls().length - calls).toBe(1);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('POST /v5/booking/cancel/');
    expect(usps.labelCalls().length - calls).toBe(1);
  });

  it('a label call that times out is sent once; the merchant releases the reservation and books again', async () => {
    const uuid = await shipment();
    const calls = usps.labelCalls().length;
    server.once(LABEL_PATH, { hang: true });
    const lost = await book({ shipment_uuid: uuid });
    expect(lost.statusCode, lost.body).toBe(503);
    expect(lost.body).toMatch(/may have booked/);
    expect(usps.labelCalls().length - calls).toBe(1);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/no answer/);
    expect(usps.labelCalls().length - calls).toBe(1);
    // Released by the merchant (after checking USPS): nothing to cancel at USPS, as no label number is known.
    const cancels = server.to(CANCEL_PATH).length;
    const released = await api('POST', '/v5/booking/cancel/', { shipment_uuid: uuid });
    expect(released.statusCode, released.body).toBe(200);
    expect(released.json().data).toMatchObject({ status: 'cancelled', carrier_shipment_identifier: null });
    expect(server.to(CANCEL_PATH).length).toBe(cancels);
    const rebooked = await book({ shipment_uuid: uuid });
    expect(rebooked.statusCode, rebooked.body).toBe(200);
    expect(usps.labelCalls().length - calls).toBe(2);
  });

  it('cancels a label through the cancel route; the shipment can be booked again; a cancel USPS refuses is a 4030 with its message', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      api_response: '200',
      data: { booking_uuid: booked.booking_uuid, status: 'cancelled', documents: [] },
    });
    expect(server.to(CANCEL_PATH).at(-1)!.path).toBe(`/labels/v3/label/${booked.tracking_number}`);
    expect(server.to(CANCEL_PATH).at(-1)!.method).toBe('DELETE');
    expect(usps.labels.find((l) => l.trackingNumber === booked.tracking_number)?.cancelled).toBe(true);

    const rebooked = (await book({ shipment_uuid: uuid })).json().data;
    expect(rebooked.tracking_number).not.toBe(booked.tracking_number);
    usps.labels.find((l) => l.trackingNumber === rebooked.tracking_number)!.cancelled = true;
    const refused = await api('POST', '/v5/booking/cancel/', { booking_uuid: rebooked.booking_uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().api_response).toBe('4030');
    expect(JSON.stringify(refused.json())).toContain('already been canceled');
  });

  it('finds Post Offices (by point and by ZIP Code) and books a parcel held for pickup at one', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'usps',
      lat: '40.8801',
      lng: '-73.9062',
      radius_meters: '3000',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['1390417', '1390422']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'uspsus',
      services: ['drop_off', 'pick_up'],
      address: { mapped_location_type: 'post_office', city: 'RIVERTON', postal_code: '10463-9998' },
    });
    expect(locations[1].services).toEqual(['drop_off']);
    const query = server.to(LOCATIONS_PATH).at(-1)!.query;
    expect([query.get('LAT'), query.get('LONG'), query.get('radius')]).toEqual(['40.880100', '-73.906200', '2']);
    const byZip = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'usps',
      postal_code: '10463',
      country_code: 'US',
    });
    expect(byZip.statusCode, byZip.body).toBe(200);
    expect(server.to(LOCATIONS_PATH).at(-1)!.query.get('ZIPCode')).toBe('10463');

    const notHeld = await book({ shipment_uuid: await shipment(), pudo_location_uuid: locations[1].pudo_location_uuid });
    expect(notHeld.statusCode).toBe(400);
    expect(notHeld.json().data.errors.pudo_location_uuid[0].standard_error_message).toContain('Hold For Pickup');

    const res = await book({ shipment_uuid: await shipment(), pudo_location_uuid: locations[0].pudo_location_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(locations[0].pudo_location_uuid);
    expect(res.json().data.carrier_additional_info.hold_for_pickup).toEqual({ facility_id: '1390417' });
    const to = sent(LABEL_PATH).toAddress;
    expect(to).toMatchObject({
      holdForPickup: true,
      facilityId: '1390417',
      streetAddress: '210 ELM RIDGE AVE',
      city: 'RIVERTON',
      ZIPCode: '10463',
      firstName: 'Lee',
      lastName: 'Park',
      email: 'lee@example.org',
      phone: '2015550188',
    });
  });

  it('received nothing USPS’s schemas or rules refuse, and never a label call twice for one booking', () => {
    expect(usps.faults).toEqual([]);
    const references = usps.labelCalls().map((call) => JSON.parse(call.body).packageDescription.customerReference[0].referenceNumber);
    expect(new Set(references).size).toBe(references.length);
  });
});
