import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import { CONSUMER_CH, CONSUMER_NL, CONSUMER_US, MERCHANT_DE, MERCHANT_US, SOCKS } from './ups-book-requests.js';
import { gifLabel, gifPixels, zplLabel } from './ups-labels.js';
import { UpsServer } from './ups-server.js';
import { BOOKING_SETTINGS, LOCATOR_PATH, SHIP_PATH, UpsShippingRoutes, VOID_PATH } from './ups-shipping-server.js';

/**
 * Through the HTTP API, on SQLite or PostgreSQL: a UPS configuration with an account number, shipments booked
 * at a local UPS (labels, returns, several parcels, customs invoices, Access Points), a lost answer that is not
 * booked twice, a UPS refusal as 4030 naming our field, and a void through the cancel route.
 */
describe('upsglb booking end to end', () => {
  let server: UpsServer;
  let ups: UpsShippingRoutes;
  let t: TestApp;
  let acct: TestAccount;

  beforeAll(async () => {
    server = await UpsServer.create();
    ups = UpsShippingRoutes.install(server);
    t = await createTestApp({ env: { WAYBILL_CARRIER_UPSGLB_BASE_URL: server.url } });
    acct = await t.account({
      features: ['booking', 'returns'],
      carriers: [
        { carrier_reference: 'ups', carrier_id: 'upsglb', booking: ['outbound', 'return'], settings: { ...BOOKING_SETTINGS } },
        {
          carrier_reference: 'ups-noaccount',
          carrier_id: 'upsglb',
          booking: ['outbound'],
          settings: { client_id: 'wb-x', client_secret: 'wb-y-secret' },
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
      shipment_id: `UPS-E2E-${++counter}`,
      shipment_reference: `ORDER-${counter}`,
      sender_address: { ...MERCHANT_DE },
      recipient_address: { ...CONSUMER_NL },
      weight: { amount: 1250, unit: 'g' },
      dimensions: { length: 30, width: 20, height: 10, unit: 'cm' },
      shipping_service: '11',
      description_of_goods: 'Socks',
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid;
  }
  const book = (body: Record<string, unknown>) => api('POST', '/v5/booking/', { carrier_reference: 'ups', ...body });
  const content = (doc: { base64_content: string }) => Buffer.from(doc.base64_content, 'base64');

  it('books an outbound parcel: a PDF label made from UPS’s GIF, the tracking number, and the label served as a document', async () => {
    const uuid = await shipment();
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atUps = ups.booked.at(-1)!;
    expect(data).toMatchObject({
      status: 'booked',
      type_of_shipment: 'outbound',
      shipping_service: '11',
      tracking_number: atUps.shipmentId,
      carrier_shipment_identifier: atUps.shipmentId,
    });
    expect(data.carrier_additional_info).toMatchObject({ shipment_identification_number: atUps.shipmentId, label_format: 'pdf' });
    const [label] = data.documents;
    expect(label).toMatchObject({ type: 'label', file_format: 'pdf' });
    const pdf = content(label).toString('latin1');
    expect(pdf.startsWith('%PDF-')).toBe(true);
    expect(pdf).toMatch(/\/Width 1400/);
    const served = await api('GET', `/v5/shipments/documents/${label.document_uuid}/`);
    expect(served.statusCode, served.body).toBe(200);
    expect(JSON.stringify(served.json())).toContain(label.base64_content.slice(0, 64));
    const details = (await api('GET', '/v5/shipment/details/', undefined, { shipment_uuid: uuid })).json().data;
    expect(details.tracking_number).toBe(atUps.shipmentId);
    expect(ups.booked.at(-1)!.references[0]).toMatch(/^WB[0-9A-F]{18}$/);
  });

  it('PNG when asked (UPS’s GIF pixel for pixel), ZPL as UPS sent it', async () => {
    const png = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'png' } })).json().data;
    expect(png.documents[0].file_format).toBe('png');
    const decoded = PNG.sync.read(content(png.documents[0]));
    expect(Buffer.from(decoded.data).equals(Buffer.from(gifPixels(gifLabel(png.tracking_number)).rgba))).toBe(true);
    const zpl = (await book({ shipment_uuid: await shipment(), carrier_metadata: { label_format: 'zpl' } })).json().data;
    expect(zpl.documents[0].file_format).toBe('zpl');
    expect(content(zpl.documents[0]).toString()).toBe(zplLabel(zpl.tracking_number));
  });

  it('books three parcels in one UPS shipment: one label per parcel', async () => {
    const parcels = [1000, 2000, 3000].map((amount) => ({ weight: { amount, unit: 'g' } }));
    const res = await book({ shipment_uuid: await shipment(), carrier_metadata: { parcels } });
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const atUps = ups.booked.at(-1)!;
    expect(atUps.packages).toHaveLength(3);
    expect(data.documents.filter((d: { type: string }) => d.type === 'label')).toHaveLength(3);
    expect(data.carrier_additional_info.parcel_tracking_numbers).toEqual(atUps.packages);
  });

  it('a parcel to Switzerland carries UPS’s commercial invoice as a customs document', async () => {
    const res = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_CH }, line_items: [SOCKS] }) });
    expect(res.statusCode, res.body).toBe(200);
    const types = res.json().data.documents.map((d: { type: string; file_format: string }) => [d.type, d.file_format]);
    expect(types).toEqual([
      ['label', 'pdf'],
      ['customs_declaration', 'pdf'],
    ]);
    expect(
      JSON.parse(ups.shipCalls().at(-1)!.body).ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms.Product[0],
    ).toMatchObject({
      CommodityCode: '611595',
      OriginCountryCode: 'PT',
    });
  });

  it('books a return label once the return is approved: UPS Print Return Label to the merchant', async () => {
    const created = await api('POST', '/v5/return/', {
      return_ticket: { return_id: 'RMA-UPS-1' },
      shipment: {
        shipment_id: 'UPS-RET-1',
        line_items: [{ product_name: 'Wool socks', quantity: 1 }],
        weight: { amount: 400, unit: 'g' },
        shipping_service: '11',
        description_of_goods: 'Returned socks',
        from_address: { ...CONSUMER_NL },
        to_address: { ...MERCHANT_DE },
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    await api('POST', '/v5/return/update/', { return_id: 'RMA-UPS-1', return_status: 'approved' });
    const res = await book({ shipment_uuid: created.json().data.shipment.shipment_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ type_of_shipment: 'return', status: 'booked' });
    const shipmentSent = JSON.parse(ups.shipCalls().at(-1)!.body).ShipmentRequest.Shipment;
    expect(shipmentSent.ReturnService.Code).toBe('9');
    expect(shipmentSent.ShipFrom.Address.City).toBe('Amsterdam');
    expect(shipmentSent.ShipTo.Address.City).toBe('Hamburg');
  });

  it('finds UPS Access Points and books a parcel to one of them', async () => {
    const found = await api('GET', '/v5/pudo-locations/', undefined, {
      carrier_reference: 'ups',
      lat: '52.3731',
      lng: '4.8924',
      radius_meters: '3000',
    });
    expect(found.statusCode, found.body).toBe(200);
    const locations = found.json().data;
    expect(locations.map((l: { pudo_location_id: string }) => l.pudo_location_id)).toEqual(['NL0004711', 'NL0009152']);
    expect(locations[0]).toMatchObject({
      carrier_id: 'upsglb',
      services: ['drop_off', 'pick_up'],
      address: { mapped_location_type: 'parcel_shop' },
    });
    expect(server.to(LOCATOR_PATH)).toHaveLength(1);

    const res = await book({ shipment_uuid: await shipment(), pudo_location_uuid: locations[0].pudo_location_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.pudo_location_uuid).toBe(locations[0].pudo_location_uuid);
    const sent = JSON.parse(ups.shipCalls().at(-1)!.body).ShipmentRequest.Shipment;
    expect(sent.AlternateDeliveryAddress).toMatchObject({ UPSAccessPointID: 'NL0004711', Name: 'Kiosk De Gracht' });
    expect(sent.ShipmentIndicationType).toEqual([{ Code: '01' }]);
  });

  it('a UPS refusal is a 4030 naming our field, and nothing is booked', async () => {
    const uuid = await shipment({
      sender_address: { ...MERCHANT_US },
      recipient_address: { ...CONSUMER_US, postal_code: '0700' },
      shipping_service: '03',
    });
    const before = ups.booked.length;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().api_response).toBe('4030');
    expect(res.json().data.errors.recipient_address.postal_code[0].standard_error_message).toContain('120207');
    expect(ups.booked.length).toBe(before);
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
  });

  it('our own checks come first: no account number, an unknown service, missing customs data', async () => {
    const noAccount = await api('POST', '/v5/booking/', { shipment_uuid: await shipment(), carrier_reference: 'ups-noaccount' });
    expect(noAccount.statusCode).toBe(400);
    expect(noAccount.json().data.errors.carrier_reference[0].standard_error_message).toContain('account_number');
    const unknown = await book({ shipment_uuid: await shipment({ shipping_service: 'overnight' }) });
    expect(unknown.json().data.errors.shipping_service[0].standard_error_message).toContain('UPS Standard');
    const customs = await book({ shipment_uuid: await shipment({ recipient_address: { ...CONSUMER_CH } }) });
    expect(Object.keys(customs.json().data.errors)).toEqual(['line_items']);
  });

  it('an answer lost after sending is not booked twice: one ship call, then the booking is found by its reference', async () => {
    const uuid = await shipment();
    const calls = ups.shipCalls().length;
    ups.loseNextShipAnswer = true;
    const res = await book({ shipment_uuid: uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(ups.shipCalls().length - calls).toBe(1);
    const atUps = ups.booked.at(-1)!;
    expect(res.json().data).toMatchObject({ status: 'booked', tracking_number: atUps.shipmentId });
    expect(res.json().data.documents[0].file_format).toBe('pdf');
    const again = await book({ shipment_uuid: uuid });
    expect(again.statusCode).toBe(400);
    expect(ups.shipCalls().length - calls).toBe(1);
  });

  it('voids a booking through the cancel route; the shipment can be booked again; a void UPS refuses is a 4030 with its message', async () => {
    const uuid = await shipment();
    const booked = (await book({ shipment_uuid: uuid })).json().data;
    const res = await api('POST', '/v5/booking/cancel/', { booking_uuid: booked.booking_uuid });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      api_response: '200',
      data: { booking_uuid: booked.booking_uuid, status: 'cancelled', documents: [] },
    });
    expect(server.to(VOID_PATH).at(-1)!.path).toBe(`/api/shipments/v2409/void/cancel/${booked.carrier_shipment_identifier}`);
    expect(ups.booked.find((s) => s.shipmentId === booked.carrier_shipment_identifier)?.voided).toBe(true);

    const rebooked = (await book({ shipment_uuid: uuid })).json().data;
    expect(rebooked.tracking_number).not.toBe(booked.tracking_number);
    // Voided at UPS meanwhile (in UPS's portal): UPS refuses to void it again.
    ups.booked.find((s) => s.shipmentId === rebooked.carrier_shipment_identifier)!.voided = true;
    const refused = await api('POST', '/v5/booking/cancel/', { booking_uuid: rebooked.booking_uuid });
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json().api_response).toBe('4030');
    expect(JSON.stringify(refused.json())).toContain('190102');
  });

  it('received nothing UPS’s schemas or rules refuse, and never a ship call twice for one booking', () => {
    expect(ups.faults).toEqual([]);
    const references = ups.shipCalls().map((call) => JSON.parse(call.body).ShipmentRequest.Request.TransactionReference.CustomerContext);
    expect(new Set(references).size).toBe(references.length);
    expect(server.to(SHIP_PATH).length).toBe(ups.shipCalls().length);
  });
});
