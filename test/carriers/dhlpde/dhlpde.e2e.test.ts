import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../../documents/pdf-text.js';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { DhlParcelServer, LOCATIONS_PATH, ORDERS_PATH, RETURNS_PATH, TRACK_PATH } from './dhl-parcel-server.js';
import { SECRETS, SETTINGS } from './dhlpde.fixtures.js';

const MERCHANT = {
  company: 'Waybill Versandhandel GmbH',
  street_name: 'Sträßchensweg',
  house_number: '10',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
  email: 'versand@waybill.test',
};
const CONSUMER = {
  first_name: 'Max',
  last_name: 'Mustermann',
  line1: 'Kurt-Schumacher-Str. 20',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
  email: 'max@example.test',
};

/**
 * Through the HTTP API against a local DHL Parcel DE: a configuration with sandbox-style credentials, an outbound
 * and a return booking whose labels are DHL's own bytes, tracking of the booked number, pick-up points and a
 * Packstation booking, DHL's refusal as a 4030 on our field, a lost answer that is not booked twice, and voids.
 */
describe('dhlpde end to end: booking, labels, returns, pick-up points, voids', () => {
  let server: DhlParcelServer;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await DhlParcelServer.create();
    t = await createTestApp({ env: { WAYBILL_CARRIER_DHLPDE_BASE_URL: server.url, WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '2' } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'dhl', carrier_id: 'dhlpde', booking: ['outbound', 'return'], settings: { ...SETTINGS } },
        { carrier_reference: 'dhl-strict', carrier_id: 'dhlpde', booking: ['outbound'], settings: { ...SETTINGS, must_encode: true } },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
    await server?.close();
  });

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const shipment = async (id: string, extra: Record<string, unknown> = {}) => {
    const res = await api('POST', '/v5/shipment/', {
      shipment_id: id,
      shipment_reference: `ORDER-${id}`,
      sender_address: MERCHANT,
      recipient_address: CONSUMER,
      weight: { amount: 1200, unit: 'g' },
      shipping_service: 'V01PAK',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid as string;
  };
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', body);

  it('stores the configuration with its secrets masked', async () => {
    const res = await t.admin('GET', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`);
    expect(res.statusCode).toBe(200);
    for (const secret of SECRETS) expect(res.body).not.toContain(secret);
    const dhl = res.json().find((c: { carrier_reference: string }) => c.carrier_reference === 'dhl');
    expect(dhl.settings).toMatchObject({
      username: 'user-valid',
      password: '********',
      api_secret: '********',
      billing_numbers: SETTINGS.billing_numbers,
    });
  });

  it('books a DHL Paket parcel: the label is exactly the PDF DHL sent, and the number is tracked', async () => {
    const uuid = await shipment('DHL-OUT-1');
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'dhl' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ status: 'booked', type_of_shipment: 'outbound', shipping_service: 'V01PAK', carrier_reference: 'dhl' });
    const created = server.created.get(data.tracking_number);
    expect(created, 'the number DHL gave').toBeDefined();
    expect(data.carrier_shipment_identifier).toBe(data.tracking_number);
    expect(server.faults).toEqual([]);
    expect(JSON.parse(server.to(ORDERS_PATH).at(-1)!.body).shipments[0].refNo).toMatch(/^WB[0-9A-F]{18}$/);

    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    const bytes = Buffer.from(label.base64_content, 'base64');
    expect(bytes.equals(created!.label)).toBe(true);
    const download = await t.app.inject({ method: 'GET', url: label.download_url.replace('https://waybill.test', '') });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.rawPayload.equals(created!.label)).toBe(true);
    expect(await pdfText(download.rawPayload)).toContain(data.tracking_number);

    await t.context.worker.runOnce();
    expect(server.to(TRACK_PATH).map((r) => r.query.get('trackingNumber'))).toContain(data.tracking_number);
    const details = (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(data.tracking_number);
    expect(details.all_events.length).toBeGreaterThan(0);
    expect(details.carrier).toMatchObject({ id: 'dhlpde', name: 'DHL Paket (Germany)' });
  });

  it('books a return label through DHL Retoure once the return is approved', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-DHL-1' },
      shipment: {
        shipment_id: 'DHL-RET-1',
        line_items: [{ product_name: 'Shirt', quantity: 1 }],
        weight: { amount: 600, unit: 'g' },
        from_address: CONSUMER,
        to_address: MERCHANT,
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    const uuid = created.json().data.shipment.shipment_uuid;
    await api('POST', '/v5/return/update/', { return_id: 'RMA-DHL-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'dhl' });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ type_of_shipment: 'return', shipping_service: 'V07PAK', carrier_additional_info: { receiver_id: 'deu' } });
    const [request] = server.to(RETURNS_PATH);
    expect(JSON.parse(request.body)).toMatchObject({ receiverId: 'deu', shipper: { name1: 'Max Mustermann', country: 'DEU' } });
    expect(Buffer.from(data.documents[0].base64_content, 'base64').equals(server.created.get(data.tracking_number)!.label)).toBe(true);
    expect(server.faults).toEqual([]);
  });

  it('searches DHL pick-up points and books a parcel to a Packstation with the recipient’s post number', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'dhl',
      lat: '50.7341',
      lng: '7.0982',
      radius_meters: '2000',
      limit: '10',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data as Array<Record<string, any>>;
    expect(locations.map((l) => l.pudo_location_id)).toEqual(['8007-453110118', '8003-4011502', '8004-4233417']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'dhlpde',
      distance_meters: 0,
      address: { mapped_location_type: 'parcel_locker' },
      services: ['drop_off', 'returns', 'pick_up'],
    });
    expect(server.to(LOCATIONS_PATH)).toHaveLength(1);
    const packstation = locations[0];

    const uuid = await shipment('DHL-PACKSTATION');
    const missing = await book({ shipment_uuid: uuid, carrier_reference: 'dhl', pudo_location_uuid: packstation.pudo_location_uuid });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().api_response).toBe('4030');
    expect(missing.json().data.errors.carrier_metadata.post_number[0].standard_error_message).toMatch(/post number/);

    const res = await book({
      shipment_uuid: uuid,
      carrier_reference: 'dhl',
      pudo_location_uuid: packstation.pudo_location_uuid,
      carrier_metadata: { post_number: '12345678' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(server.created.get(res.json().data.tracking_number)!.body.consignee).toEqual({
      name: 'Max Mustermann',
      lockerID: 118,
      postNumber: '12345678',
      city: 'Bonn',
      postalCode: '53111',
      country: 'DEU',
    });
    expect(res.json().data.pudo_location_uuid).toBe(packstation.pudo_location_uuid);
  });

  it('refuses with 4030 on our field: DHL’s validation error, and what DHL would refuse known before sending', async () => {
    const uuid = await shipment('DHL-NOT-CODEABLE', { recipient_address: { ...CONSUMER, postal_code: '10117' } });
    const before = server.to(ORDERS_PATH).length;
    const res = await book({ shipment_uuid: uuid, carrier_reference: 'dhl-strict' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toMatch(/does not match the postcode/);
    expect(server.to(ORDERS_PATH).length).toBe(before + 1);

    const heavy = await shipment('DHL-TOO-HEAVY', { shipping_service: 'V62KP', weight: { amount: 2500, unit: 'g' } });
    const early = await book({ shipment_uuid: heavy, carrier_reference: 'dhl' });
    expect(early.statusCode).toBe(400);
    expect(early.json().data.errors.weight[0].standard_error_message).toMatch(/up to 1 kg/);
    expect(server.to(ORDERS_PATH).length).toBe(before + 1);
  });

  it('a booking whose answer never came is not sent again: DHL received it once', async () => {
    const uuid = await shipment('DHL-LOST');
    const before = server.to(ORDERS_PATH).length;
    server.once(ORDERS_PATH, { hang: true });
    const lost = await book({ shipment_uuid: uuid, carrier_reference: 'dhl' });
    expect(lost.statusCode).toBe(503);
    expect(lost.body).toMatch(/may have booked/);
    const again = await book({ shipment_uuid: uuid, carrier_reference: 'dhl' });
    expect(again.statusCode).toBe(400);
    expect(again.json().data.errors.shipment_uuid[0].standard_error_message).toMatch(/no answer/);
    expect(server.to(ORDERS_PATH).length).toBe(before + 1);
  });

  it('cancels a booking: DHL voids the shipment, and the shipment can be booked again', async () => {
    const uuid = await shipment('DHL-CANCEL');
    const booked = (await book({ shipment_uuid: uuid, carrier_reference: 'dhl' })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'cancelled', documents: [] });
    expect(server.created.get(booked.tracking_number)!.cancelled).toBe(true);
    const deletion = server
      .to(ORDERS_PATH)
      .filter((r) => r.method === 'DELETE')
      .at(-1)!;
    expect(deletion.query.getAll('shipment')).toEqual([booked.tracking_number]);
    const again = await book({ shipment_uuid: uuid, carrier_reference: 'dhl' });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.tracking_number).not.toBe(booked.tracking_number);
  });

  it('reuses a search for an hour (shared through the database), then asks DHL again; a location found stays bookable for a week', async () => {
    const search = (lat: string) =>
      api('GET', '/v5/pudo-locations/', undefined, { carrier_reference: 'dhl', lat, lng: '7.0982', radius_meters: '3000', limit: '5' });
    const first = await search('50.7341');
    expect(first.statusCode, first.body).toBe(200);
    const asked = server.to(LOCATIONS_PATH).length;
    // Within ~11 m and the hour: the cached answer.
    const near = await search('50.73412');
    const ids = (res: typeof first) => res.json().data.map((l: { pudo_location_id: string }) => l.pudo_location_id);
    expect(ids(near)).toEqual(ids(first));
    expect(server.to(LOCATIONS_PATH)).toHaveLength(asked);

    t.clock.advance(61 * 60_000);
    expect((await search('50.7341')).statusCode).toBe(200);
    expect(server.to(LOCATIONS_PATH)).toHaveLength(asked + 1);

    // A week after it was last found, a location must be searched again before it is booked.
    t.clock.advance(8 * 24 * 3_600_000);
    const uuid = await shipment('DHL-STALE-PUDO');
    const stale = await book({
      shipment_uuid: uuid,
      carrier_reference: 'dhl',
      pudo_location_uuid: first.json().data[0].pudo_location_uuid,
      carrier_metadata: { post_number: '12345678' },
    });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().data.errors.pudo_location_uuid[0].standard_error_message).toMatch(/No pick-up\/drop-off location/);
  });
});
