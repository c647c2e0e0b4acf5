import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BookedShipment, BookResult } from '../../../src/carriers/booking.js';
import { bookRequest, CONSUMER_CA, CONSUMER_US, fedexLocation, MERCHANT_US, MUG } from './fedex-book-requests.js';
import { pngLabel, zplLabel } from './fedex-labels.js';
import {
  ACCOUNT,
  BOOKING_SETTINGS,
  CANCEL_PATH,
  LOCATIONS_PATH,
  type LocalFedexShip,
  localFedexShip,
  SHIP_CLIENT_ID,
  SHIP_CLIENT_SECRET,
  SHIP_PATH,
  SPLIT_SETTINGS,
  TOKEN_PATH,
  VALIDATE_PATH,
} from './fedex-ship-server.js';

/** The adapter's booking, cancel and location search against the local FedEx, which checks every request. */
describe('fdxglb booking against a local FedEx', () => {
  let fedex: LocalFedexShip;
  beforeEach(async () => {
    fedex = await localFedexShip();
  });
  afterEach(async () => {
    expect(fedex.routes.faults).toEqual([]);
    await fedex.close();
  });

  const now = () => ({ now: new Date('2026-11-30T10:00:00Z') });
  const booked = (result: BookResult): BookedShipment => {
    expect(result.status, JSON.stringify(result).slice(0, 400)).toBe('ok');
    return result as BookedShipment;
  };
  const bytesOf = (label: BookedShipment['labels'][number]) => Buffer.from((label as { bytes: Uint8Array }).bytes);

  it('books a parcel: FedEx’s PDF label as it came, the master tracking number, our reference on the package', async () => {
    const result = booked(await fedex.adapter.book(bookRequest(), BOOKING_SETTINGS, now()));
    const atFedex = fedex.routes.booked.at(-1)!;
    expect(result).toMatchObject({
      tracking_number: atFedex.master,
      carrier_shipment_identifier: atFedex.master,
      shipping_service: 'FEDEX_GROUND',
      parcel_tracking_numbers: [atFedex.master],
      carrier_additional_info: { master_tracking_number: atFedex.master, booking_reference: 'WB5D1C7A3E2B4F4C6D8E', label_format: 'pdf' },
    });
    expect(result.labels).toHaveLength(1);
    expect(result.labels[0]).toMatchObject({
      kind: 'file',
      format: 'pdf',
      document_type: 'label',
      parcel_index: 0,
      tracking_number: atFedex.master,
    });
    expect(bytesOf(result.labels[0]).equals(atFedex.labels[0])).toBe(true);
    expect(bytesOf(result.labels[0]).subarray(0, 5).toString()).toBe('%PDF-');
    const sent = JSON.parse(fedex.routes.shipCalls()[0].body);
    expect(sent).toMatchObject({ labelResponseOptions: 'LABEL', accountNumber: { value: ACCOUNT } });
    expect(sent.requestedShipment).toMatchObject({
      shipDatestamp: '2026-11-30',
      serviceType: 'FEDEX_GROUND',
      packagingType: 'YOUR_PACKAGING',
      pickupType: 'DROPOFF_AT_FEDEX_LOCATION',
      shipper: { contact: { companyName: 'Riverbend Goods LLC', personName: 'Dana Hale', phoneNumber: '9015550134' } },
      recipients: [
        {
          contact: { personName: 'Mo Rivera', phoneNumber: '9085550177' },
          address: {
            streetLines: ['48 Orchard St', 'Apt 3'],
            stateOrProvinceCode: 'NJ',
            postalCode: '07060-1234',
            countryCode: 'US',
            residential: true,
          },
        },
      ],
      labelSpecification: { imageType: 'PDF', labelStockType: 'PAPER_4X6' },
      requestedPackageLineItems: [
        {
          weight: { units: 'LB', value: 5.6 },
          dimensions: { length: 16, width: 12, height: 8, units: 'IN' },
          customerReferences: [
            { customerReferenceType: 'CUSTOMER_REFERENCE', value: 'WB5D1C7A3E2B4F4C6D8E' },
            { customerReferenceType: 'INVOICE_NUMBER', value: 'ORDER-2001' },
          ],
        },
      ],
    });
    expect(sent.requestedShipment.customsClearanceDetail).toBeUndefined();
    expect(fedex.server.to(SHIP_PATH)[0].headers['x-customer-transaction-id']).toMatch(/^waybill-/);
  });

  it('PNG and ZPLII as FedEx rendered them, from the booking’s option or the configuration’s', async () => {
    const png = booked(await fedex.adapter.book(bookRequest({ carrier_metadata: { label_format: 'png' } }), BOOKING_SETTINGS, now()));
    expect(png.labels[0]).toMatchObject({ format: 'png' });
    expect(bytesOf(png.labels[0]).equals(pngLabel(png.tracking_number))).toBe(true);
    const zpl = booked(
      await fedex.adapter.book(bookRequest(), { ...BOOKING_SETTINGS, label_format: 'zpl', pickup_type: 'USE_SCHEDULED_PICKUP' }, now()),
    );
    expect(fedex.routes.lastShipment().pickupType).toBe('USE_SCHEDULED_PICKUP');
    expect(zpl.labels[0]).toMatchObject({ format: 'zpl' });
    expect(bytesOf(zpl.labels[0]).toString()).toBe(zplLabel(zpl.tracking_number));
    expect(fedex.routes.lastShipment().labelSpecification).toEqual({
      imageType: 'ZPLII',
      labelStockType: 'STOCK_4X6',
      labelFormatType: 'COMMON2D',
    });
  });

  it('books several parcels as one multiple-package shipment: a label per piece under one master number', async () => {
    const parcels = [1000, 2000, 3000].map((weight_grams) => ({ weight_grams, dimensions_cm: null }));
    const result = booked(await fedex.adapter.book(bookRequest({ parcels }), BOOKING_SETTINGS, now()));
    const atFedex = fedex.routes.booked.at(-1)!;
    expect(atFedex.pieces).toHaveLength(3);
    expect(result.tracking_number).toBe(atFedex.master);
    expect(result.parcel_tracking_numbers).toEqual(atFedex.pieces);
    expect(result.labels.map((l) => [l.parcel_index, l.tracking_number])).toEqual(atFedex.pieces.map((n, i) => [i, n]));
    const sent = fedex.routes.lastShipment();
    expect(sent.totalPackageCount).toBe(3);
    expect(sent.totalWeight).toBe(13.5);
    expect(sent.requestedPackageLineItems.map((i: any) => [i.sequenceNumber, i.weight.value])).toEqual([
      [1, 2.3],
      [2, 4.5],
      [3, 6.7],
    ]);
  });

  it('across a customs border: the commodities from our line items, FedEx’s commercial invoice as a customs document, ETD when asked', async () => {
    const toCanada = bookRequest({ recipient: { ...CONSUMER_CA }, shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY', line_items: [MUG] });
    const result = booked(await fedex.adapter.book(toCanada, BOOKING_SETTINGS, now()));
    expect(result.labels.map((l) => [l.document_type, l.format])).toEqual([
      ['label', 'pdf'],
      ['customs_declaration', 'pdf'],
    ]);
    expect(bytesOf(result.labels[1]).subarray(0, 5).toString()).toBe('%PDF-');
    const sent = fedex.routes.lastShipment();
    expect(sent.customsClearanceDetail).toEqual({
      dutiesPayment: { paymentType: 'SENDER', payor: { responsibleParty: { accountNumber: { value: ACCOUNT } } } },
      commercialInvoice: {
        shipmentPurpose: 'SOLD',
        customerReferences: [{ customerReferenceType: 'INVOICE_NUMBER', value: 'ORDER-2001' }],
      },
      totalCustomsValue: { amount: 42, currency: 'USD' },
      commodities: [
        {
          description: 'Glazed stoneware mug',
          name: 'Stoneware mug',
          countryOfManufacture: 'US',
          harmonizedCode: '691200',
          quantity: 3,
          quantityUnits: 'PCS',
          numberOfPieces: 3,
          unitPrice: { amount: 14, currency: 'USD' },
          customsValue: { amount: 42, currency: 'USD' },
          weight: { units: 'LB', value: 2.7 },
          partNumber: 'SKU-MUG-2',
        },
      ],
    });
    expect(sent.shippingDocumentSpecification.shippingDocumentTypes).toEqual(['COMMERCIAL_INVOICE']);
    expect(sent.shipmentSpecialServices).toBeUndefined();
    expect(sent.requestedPackageLineItems[0].customerReferences).toHaveLength(1);

    const etd = booked(
      await fedex.adapter.book(
        { ...toCanada, carrier_metadata: { duties_payment: 'RECIPIENT', terms_of_sale: 'DAP' } },
        { ...BOOKING_SETTINGS, electronic_trade_documents: true },
        now(),
      ),
    );
    const withEtd = fedex.routes.lastShipment();
    expect(withEtd.shipmentSpecialServices).toEqual({
      specialServiceTypes: ['ELECTRONIC_TRADE_DOCUMENTS'],
      etdDetail: { requestedDocumentTypes: ['COMMERCIAL_INVOICE'] },
    });
    expect(withEtd.customsClearanceDetail.dutiesPayment).toEqual({ paymentType: 'RECIPIENT' });
    expect(withEtd.customsClearanceDetail.commercialInvoice.termsOfSale).toBe('DAP');
    expect(etd.carrier_additional_info.alerts).toEqual(['ETD.DOCUMENTS.SENT: Trade documents were sent electronically.']);
  });

  it('a return: the consumer ships it to the merchant on a print return label', async () => {
    const request = bookRequest({ type_of_shipment: 'return', sender: { ...CONSUMER_US }, recipient: { ...MERCHANT_US } });
    booked(await fedex.adapter.book(request, BOOKING_SETTINGS, now()));
    const sent = fedex.routes.lastShipment();
    expect(sent.shipmentSpecialServices).toEqual({
      specialServiceTypes: ['RETURN_SHIPMENT'],
      returnShipmentDetail: { returnType: 'PRINT_RETURN_LABEL' },
    });
    expect(sent.shipper.address.city).toBe('Plainfield');
    expect(sent.recipients[0].address).toMatchObject({ city: 'Memphis' });
    expect(sent.recipients[0].address.residential).toBeUndefined();
  });

  it('to a FedEx location: Hold at Location with its id, type and address', async () => {
    booked(await fedex.adapter.book(bookRequest({ pudo_location: fedexLocation() }), BOOKING_SETTINGS, now()));
    const sent = fedex.routes.lastShipment();
    expect(sent.shipmentSpecialServices).toEqual({
      specialServiceTypes: ['HOLD_AT_LOCATION'],
      holdAtLocationDetail: {
        locationId: 'ATLWB',
        locationType: 'FEDEX_OFFICE',
        locationContactAndAddress: {
          contact: { companyName: 'FedEx Office Print & Ship Center' },
          address: {
            streetLines: ['410 Riverbend Ave'],
            city: 'ATLANTA',
            stateOrProvinceCode: 'GA',
            postalCode: '30303',
            countryCode: 'US',
          },
        },
      },
    });
    expect(sent.recipients[0].address.residential).toBeUndefined();
    const refused = await fedex.adapter.book(
      bookRequest({ pudo_location: fedexLocation({ pudo_location_id: 'GONE' }) }),
      BOOKING_SETTINGS,
      now(),
    );
    expect(refused).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['pudo_location_uuid'] }] });
  });

  it('FedEx’s refusals become field errors on our paths', async () => {
    const postal = await fedex.adapter.book(bookRequest({ recipient: { ...CONSUMER_US, postal_code: '0700' } }), BOOKING_SETTINGS, now());
    expect(postal).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['recipient_address', 'postal_code'] }] });
    expect(postal.status === 'error' && postal.field_errors?.[0].message).toContain('RECIPIENT.POSTALSTATE.MISMATCH');
    const service = await fedex.adapter.book(
      bookRequest({ recipient: { ...CONSUMER_CA }, shipping_service: 'FEDEX_2_DAY', line_items: [MUG] }),
      BOOKING_SETTINGS,
      now(),
    );
    expect(service).toMatchObject({ status: 'error', field_errors: [{ path: ['shipping_service'] }] });
    const account = await fedex.adapter.book(bookRequest(), { ...BOOKING_SETTINGS, account_number: '111111111' }, now());
    expect(account).toMatchObject({ status: 'error', field_errors: [{ path: ['carrier_reference'] }] });
    expect(account.status === 'error' && account.field_errors?.[0].message).toContain('settings.account_number');
    expect(fedex.routes.booked).toHaveLength(0);
  });

  it('an answer without a usable label: the shipment is cancelled at FedEx and the booking refused', async () => {
    fedex.server.once(SHIP_PATH, {
      body: {
        output: {
          transactionShipments: [
            { masterTrackingNumber: '794900000017', pieceResponses: [{ trackingNumber: '794900000017', packageDocuments: [] }] },
          ],
        },
      },
    });
    const result = await fedex.adapter.book(bookRequest(), BOOKING_SETTINGS, now());
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('no label for piece 794900000017');
    expect(JSON.parse(fedex.server.to(CANCEL_PATH)[0].body)).toEqual({
      accountNumber: { value: ACCOUNT },
      trackingNumber: '794900000017',
      deletionControl: 'DELETE_ALL_PACKAGES',
    });
  });

  it('cancels by the master tracking number; a second cancel and an unknown number are refusals with FedEx’s reason', async () => {
    const result = booked(
      await fedex.adapter.book(bookRequest({ parcels: [bookRequest().parcels[0], bookRequest().parcels[0]] }), BOOKING_SETTINGS, now()),
    );
    expect(await fedex.adapter.cancel(result.carrier_shipment_identifier, BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    expect(fedex.routes.booked.at(-1)!.cancelled).toBe(true);
    const again = await fedex.adapter.cancel(result.carrier_shipment_identifier, BOOKING_SETTINGS);
    expect(again).toMatchObject({ status: 'error', retryable: false });
    expect(again.status === 'error' && again.message).toContain('cancelled already');
    const unknown = await fedex.adapter.cancel('794999999996', BOOKING_SETTINGS);
    expect(unknown.status === 'error' && unknown.message).toContain('TRACKINGNUMBER.ENTERED.INVALID');
    const calls = fedex.server.to(CANCEL_PATH).length;
    expect(await fedex.adapter.cancel('1Z999', BOOKING_SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    expect(fedex.server.to(CANCEL_PATH)).toHaveLength(calls);
  });

  it('validates without booking: FedEx’s warnings, its refusals on our fields, one piece of several', async () => {
    expect(await fedex.adapter.validateBooking(bookRequest(), BOOKING_SETTINGS, now())).toEqual({ status: 'ok', warnings: [] });
    const sent = JSON.parse(fedex.server.to(VALIDATE_PATH)[0].body);
    expect(Object.keys(sent).sort()).toEqual(['accountNumber', 'requestedShipment']);
    expect(sent.requestedShipment.totalPackageCount).toBeUndefined();
    const toCanada = bookRequest({ recipient: { ...CONSUMER_CA }, shipping_service: 'FEDEX_INTERNATIONAL_PRIORITY', line_items: [MUG] });
    const parcels = [bookRequest().parcels[0], { weight_grams: 900, dimensions_cm: null }];
    expect(await fedex.adapter.validateBooking({ ...toCanada, parcels }, BOOKING_SETTINGS, now())).toEqual({
      status: 'ok',
      warnings: [
        'COMMODITY.WEIGHT.ESTIMATED: Commodity weights were estimated.',
        'FedEx validates one piece: the shipment was checked with its first parcel.',
      ],
    });
    expect(JSON.parse(fedex.server.to(VALIDATE_PATH)[1].body).requestedShipment.requestedPackageLineItems).toHaveLength(1);
    const refused = await fedex.adapter.validateBooking(
      bookRequest({ recipient: { ...CONSUMER_US, postal_code: '0700' } }),
      BOOKING_SETTINGS,
      now(),
    );
    expect(refused).toMatchObject({ status: 'error', retryable: false, field_errors: [{ path: ['recipient_address', 'postal_code'] }] });
    expect(fedex.routes.booked).toHaveLength(0);
  });

  it('searches FedEx locations by postal code and by point, within a country', async () => {
    const byPostal = await fedex.adapter.searchPudo(
      { postal_code: '30303', country_code: 'US', radius_meters: 8000, limit: 10, services: ['pick_up'] },
      BOOKING_SETTINGS,
      now(),
    );
    expect(byPostal.status).toBe('ok');
    if (byPostal.status !== 'ok') return;
    expect(byPostal.locations.map((l) => [l.pudo_location_id, l.services, l.distance_meters])).toEqual([
      ['ATLWB', ['drop_off', 'pick_up'], 800],
      ['ATLWC', ['pick_up'], 2400],
      ['ATLWD', ['drop_off', 'pick_up'], 4828],
    ]);
    expect(JSON.parse(fedex.server.to(LOCATIONS_PATH)[0].body)).toEqual({
      locationsSummaryRequestControlParameters: { distance: { units: 'KM', value: 8 }, maxResults: 10 },
      locationSearchCriterion: 'ADDRESS',
      location: { address: { postalCode: '30303', countryCode: 'US' } },
      multipleMatchesAction: 'RETURN_ALL',
      sort: { criteria: 'DISTANCE', order: 'ASCENDING' },
      locationCapabilities: [{ transferOfPossessionType: 'HOLD_AT_LOCATION' }],
    });

    const noCountry = await fedex.adapter.searchPudo({ lat: 33.75, lng: -84.39, radius_meters: 5000, limit: 5 }, BOOKING_SETTINGS, now());
    expect(noCountry).toMatchObject({ status: 'error', retryable: false });
    expect(fedex.server.to(LOCATIONS_PATH)).toHaveLength(1);
    const byPoint = await fedex.adapter.searchPudo(
      { lat: 33.75, lng: -84.39, radius_meters: 5000, limit: 5 },
      { ...BOOKING_SETTINGS, search_country_code: 'US' },
      now(),
    );
    expect(byPoint.status === 'ok' && byPoint.locations).toHaveLength(3);
    expect(JSON.parse(fedex.server.to(LOCATIONS_PATH)[1].body).location).toEqual({
      address: { countryCode: 'US' },
      longLat: { latitude: '33.75', longitude: '-84.39' },
    });
    const elsewhere = await fedex.adapter.searchPudo(
      { postal_code: '1015', country_code: 'NL', radius_meters: 5000, limit: 5 },
      BOOKING_SETTINGS,
      now(),
    );
    expect(elsewhere).toEqual({ status: 'ok', locations: [] });
  });
});

describe('fdxglb booking with the Ship API in a project of its own', () => {
  it('books, cancels and searches with the Ship project’s token; tracking keeps the Track project’s', async () => {
    const fedex = await localFedexShip({ shipClientId: SHIP_CLIENT_ID });
    try {
      const result = await fedex.adapter.book(bookRequest(), SPLIT_SETTINGS, { now: new Date() });
      expect(result.status, JSON.stringify(result).slice(0, 300)).toBe('ok');
      if (result.status !== 'ok') return;
      expect(await fedex.adapter.cancel(result.carrier_shipment_identifier, SPLIT_SETTINGS)).toEqual({ status: 'ok' });
      const search = await fedex.adapter.searchPudo(
        { postal_code: '30303', country_code: 'US', radius_meters: 5000, limit: 5 },
        SPLIT_SETTINGS,
        {
          now: new Date(),
        },
      );
      expect(search.status).toBe('ok');
      const [tracked] = await fedex.adapter.track(
        [{ tracking_number: '799900000043', first_polled_at: new Date().toISOString(), attempt: 0 }],
        SPLIT_SETTINGS,
        {
          now: new Date(),
        },
      );
      expect(tracked.status).toBe('ok');
      const tokenCalls = fedex.server.to(TOKEN_PATH).map((r) => new URLSearchParams(r.body).get('client_id'));
      expect(tokenCalls.sort()).toEqual([SHIP_CLIENT_ID, 'fixture-client-id-4821'].sort());
      expect(JSON.stringify(result)).not.toContain(SHIP_CLIENT_SECRET);

      // Without the Ship project's keys, the tracking project is refused the Ship API (403).
      const refused = await fedex.adapter.book(bookRequest(), BOOKING_SETTINGS, { now: new Date() });
      expect(refused).toMatchObject({ status: 'error' });
      expect(refused.status === 'error' && refused.outcome_unknown).toBeFalsy();
      expect(fedex.routes.faults).toEqual([]);
    } finally {
      await fedex.close();
    }
  });
});
