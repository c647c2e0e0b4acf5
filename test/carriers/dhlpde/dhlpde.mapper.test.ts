import { describe, expect, it } from 'vitest';
import { carrierPudoUuid } from '../../../src/carriers/booking.js';
import { readCancelAnswer, readOrderAnswer } from '../../../src/carriers/dhlpde/dhlpde.answer.js';
import { mapLocation, mapLocations, splitStreet } from '../../../src/carriers/dhlpde/dhlpde.locations.js';
import { planOrder } from '../../../src/carriers/dhlpde/dhlpde.order.js';
import type { DhlLocker, DhlPostOffice } from '../../../src/carriers/dhlpde/dhlpde.payload.js';
import { planReturn, readReturnAnswer } from '../../../src/carriers/dhlpde/dhlpde.returns.js';
import { orderFaults, returnFaults } from './dhl-parcel-schema.js';
import { dhlpdeFixture, outboundRequest, returnRequest, SETTINGS, SWISS_CONSUMER, SWISS_GOODS } from './dhlpde.fixtures.js';

const NOW = new Date('2026-11-24T09:00:00Z');
const [locker, office, shop] = (dhlpdeFixture('locations-bonn') as { locations: unknown[] }).locations;

function answerContext(plan: ReturnType<typeof planOrder>) {
  return {
    origins: plan.origins,
    parcelPath: plan.parcelPath,
    parcels: plan.order.shipments.length,
    format: plan.format,
    product: plan.product,
  };
}

describe('dhlpde: our shipment → a DHL order', () => {
  it('maps a domestic DHL Paket parcel field by field, within the schema DHL publishes', () => {
    const plan = planOrder(outboundRequest(), SETTINGS);
    expect(plan.problems).toEqual([]);
    expect(orderFaults(plan.order)).toEqual([]);
    expect(plan.query.toString()).toBe('docFormat=PDF&includeDocs=include&combine=false');
    expect(plan.order).toEqual({
      profile: 'STANDARD_GRUPPENPROFIL',
      shipments: [
        {
          product: 'V01PAK',
          billingNumber: '33333333330102',
          refNo: 'WB6F1C2D4E0000400080',
          shipDate: '2026-11-24',
          shipper: {
            name1: 'Waybill Versandhandel GmbH',
            name2: 'Erika Muster',
            addressStreet: 'Sträßchensweg',
            addressHouse: '10',
            postalCode: '53113',
            city: 'Bonn',
            country: 'DEU',
            email: 'versand@waybill.test',
          },
          // Within Germany DHL takes no phone number of the recipient.
          consignee: {
            name1: 'Max Mustermann',
            addressStreet: 'Kurt-Schumacher-Str. 20',
            postalCode: '53113',
            city: 'Bonn',
            country: 'DEU',
            email: 'max@example.test',
          },
          details: { weight: { uom: 'g', value: 1200 }, dim: { uom: 'cm', length: 30, width: 20, height: 11 } },
        },
      ],
    });
  });

  it('declares the goods of a parcel to Switzerland (CN23): one piece’s value and weight, HS code, origin', () => {
    const plan = planOrder(
      outboundRequest({
        shipping_service: null,
        recipient: { ...SWISS_CONSUMER },
        line_items: SWISS_GOODS,
        carrier_metadata: { invoice_no: 'INV-9' },
      }),
      SETTINGS,
    );
    expect(plan.problems).toEqual([]);
    expect(orderFaults(plan.order)).toEqual([]);
    const [shipment] = plan.order.shipments;
    expect(shipment.product).toBe('V53WPAK');
    expect(shipment.billingNumber).toBe('33333333335301');
    expect(shipment.consignee).toMatchObject({ country: 'CHE', phone: '+41 44 1234567', postalCode: '8001' });
    expect(shipment.customs).toEqual({
      exportType: 'COMMERCIAL_GOODS',
      invoiceNo: 'INV-9',
      postalCharges: { currency: 'EUR', value: 0 },
      items: [
        {
          itemDescription: 'Knitted wool scarf',
          packagedQuantity: 2,
          hsCode: '611710',
          countryOfOrigin: 'DEU',
          itemValue: { currency: 'EUR', value: 24.5 },
          itemWeight: { uom: 'g', value: 150 },
        },
        {
          itemDescription: 'Tea',
          packagedQuantity: 1,
          hsCode: '090240',
          countryOfOrigin: 'IND',
          itemValue: { currency: 'EUR', value: 9.9 },
          itemWeight: { uom: 'g', value: 250 },
        },
      ],
    });
    // No customs declaration inside the EU.
    const toVienna = planOrder(
      outboundRequest({ shipping_service: null, recipient: { ...SWISS_CONSUMER, country_code: 'AT', postal_code: '1010', city: 'Wien' } }),
      SETTINGS,
    );
    expect(toVienna.problems).toEqual([]);
    expect(toVienna.order.shipments[0].customs).toBeUndefined();
  });

  it('sends one DHL shipment per parcel, services from carrier_metadata, a return label, and ZPL on request', () => {
    const plan = planOrder(
      outboundRequest({
        parcels: [
          { weight_grams: 800, dimensions_cm: null },
          { weight_grams: 5000, dimensions_cm: { length: 40, width: 30, height: 20 } },
        ],
        carrier_metadata: {
          preferred_neighbour: 'Schmidt, 2nd floor',
          visual_check_of_age: 'A18',
          additional_insurance: { amount: 750, currency: 'EUR' },
          return_label: true,
          label_format: 'zpl',
        },
      }),
      { ...SETTINGS, print_format: '910-300-400', must_encode: true },
    );
    expect(plan.problems).toEqual([]);
    expect(orderFaults(plan.order)).toEqual([]);
    expect(plan.order.shipments.map((s) => s.details)).toEqual([
      { weight: { uom: 'g', value: 800 } },
      { weight: { uom: 'g', value: 5000 }, dim: { uom: 'cm', length: 40, width: 30, height: 20 } },
    ]);
    expect(plan.order.shipments[1].services).toEqual({
      preferredNeighbour: 'Schmidt, 2nd floor',
      visualCheckOfAge: 'A18',
      additionalInsurance: { value: 750, currency: 'EUR' },
      dhlRetoure: { billingNumber: '33333333330701', refNo: 'WB6F1C2D4E0000400080', returnAddress: plan.order.shipments[1].shipper },
    });
    expect(Object.fromEntries(plan.query)).toEqual({
      docFormat: 'ZPL2',
      includeDocs: 'include',
      combine: 'false',
      mustEncode: 'true',
      printFormat: '910-300-400',
      retourePrintFormat: '910-300-400',
    });
  });

  it('addresses a Packstation with the recipient’s post number, and a post office with the e-mail address', () => {
    const packstation = mapLocation(locker, 'dhlpde', NOW)!;
    const toLocker = planOrder(outboundRequest({ pudo_location: packstation, carrier_metadata: { post_number: '12345678' } }), SETTINGS);
    expect(toLocker.problems).toEqual([]);
    expect(orderFaults(toLocker.order)).toEqual([]);
    expect(toLocker.order.shipments[0].consignee).toEqual<DhlLocker>({
      name: 'Max Mustermann',
      lockerID: 118,
      postNumber: '12345678',
      city: 'Bonn',
      postalCode: '53111',
      country: 'DEU',
    });
    const withoutNumber = planOrder(outboundRequest({ pudo_location: packstation }), SETTINGS);
    expect(withoutNumber.problems).toEqual([
      { path: ['carrier_metadata', 'post_number'], message: expect.stringContaining('post number') },
    ]);

    const postOffice = mapLocation(office, 'dhlpde', NOW)!;
    const toOffice = planOrder(outboundRequest({ pudo_location: postOffice }), SETTINGS);
    expect(toOffice.problems).toEqual([]);
    expect(orderFaults(toOffice.order)).toEqual([]);
    expect(toOffice.order.shipments[0].consignee).toEqual<DhlPostOffice>({
      name: 'Max Mustermann',
      retailID: 502,
      email: 'max@example.test',
      city: 'Bonn',
      postalCode: '53111',
      country: 'DEU',
    });
  });

  it('finds up front what DHL would refuse, each at our field', () => {
    const problems = (overrides: Parameters<typeof outboundRequest>[0], settings: Record<string, unknown> = SETTINGS) =>
      planOrder(outboundRequest(overrides), settings).problems.map((p) => p.path.join('.'));
    expect(problems({}, { ...SETTINGS, billing_numbers: {} })).toEqual(['carrier_reference']);
    expect(problems({ carrier_metadata: { billing_number: '33333333335301' } })).toEqual(['carrier_metadata.billing_number']);
    expect(
      problems({ recipient: { first_name: 'Max', line1: 'Hauptstraße', postal_code: '5311', city: 'Bonn', country_code: 'DE' } }),
    ).toEqual(['recipient_address.line1', 'recipient_address.postal_code']);
    expect(problems({ shipping_service: 'V62KP', parcels: [{ weight_grams: 1500, dimensions_cm: null }] })).toEqual(['weight']);
    expect(
      problems({
        parcels: [
          { weight_grams: 500, dimensions_cm: null },
          { weight_grams: null, dimensions_cm: null },
        ],
      }),
    ).toEqual(['carrier_metadata.parcels.1.weight']);
    expect(problems({ recipient: { ...SWISS_CONSUMER } })).toEqual(['shipping_service', 'line_items']);
    expect(
      problems({ shipping_service: 'V53WPAK', recipient: { ...SWISS_CONSUMER }, line_items: [{ product_name: 'Mug', quantity: 1 }] }),
    ).toEqual([
      'line_items.0.hs_code',
      'line_items.0.product_origin_country_code',
      'line_items.0.product_cost',
      'line_items.0.product_weight',
      'line_items.0.currency_code',
    ]);
    expect(
      problems({ sender: { company: 'Acme', line1: 'Damrak 1', postal_code: '1012 LG', city: 'Amsterdam', country_code: 'NL' } }),
    ).toEqual(['sender_address.country_code']);
    expect(
      problems(
        { carrier_metadata: { colour: 'yellow', premium: 'yes', return_label: true } },
        { ...SETTINGS, return_billing_number: undefined },
      ),
    ).toEqual(['carrier_metadata.colour', 'carrier_metadata.premium', 'carrier_metadata.return_label']);
    expect(
      problems({
        recipient: { company: 'X'.repeat(51), line1: 'Kurt-Schumacher-Str. 20', postal_code: '53113', city: 'Bonn', country_code: 'DE' },
      }),
    ).toEqual(['recipient_address.company']);
  });
});

describe('dhlpde: a return shipment → a DHL Retoure label (Returns API)', () => {
  it('books the consumer as shipper to the merchant’s receiver id, with the booking reference', () => {
    const plan = planReturn(returnRequest(), SETTINGS);
    expect(plan.problems).toEqual([]);
    expect(returnFaults(plan.order)).toEqual([]);
    expect(plan.order).toEqual({
      receiverId: 'deu',
      customerReference: 'ORDER-4711',
      shipmentReference: 'WB6F1C2D4E0000400080',
      shipper: {
        name1: 'Max Mustermann',
        addressStreet: 'Kurt-Schumacher-Str. 20',
        postalCode: '53113',
        city: 'Bonn',
        country: 'DEU',
        email: 'max@example.test',
        phone: '+49 228 1234567',
      },
      itemWeight: { uom: 'g', value: 1200 },
    });
  });

  it('takes the receiver id of the sender’s country, declares goods from outside the EU, refuses outbound options', () => {
    const swiss = planReturn(returnRequest({ sender: { ...SWISS_CONSUMER }, line_items: SWISS_GOODS }), {
      ...SETTINGS,
      return_receiver_ids: { CH: 'che' },
    });
    expect(swiss.problems).toEqual([]);
    expect(returnFaults(swiss.order)).toEqual([]);
    expect(swiss.order.receiverId).toBe('che');
    expect(swiss.order.customsDetails?.items).toHaveLength(2);
    const wrong = planReturn(returnRequest({ shipping_service: 'V01PAK', carrier_metadata: { label_format: 'zpl', premium: true } }), {
      ...SETTINGS,
      return_receiver_id: undefined,
    });
    expect(wrong.problems.map((p) => p.path.join('.'))).toEqual([
      'carrier_metadata.premium',
      'shipping_service',
      'carrier_metadata.label_format',
      'carrier_reference',
    ]);
  });

  it('reads the label, and maps DHL’s refusal to the consumer’s address', () => {
    const plan = planReturn(returnRequest(), SETTINGS);
    const booked = readReturnAnswer(201, dhlpdeFixture('return-created'), plan);
    expect(booked).toMatchObject({
      kind: 'booked',
      result: {
        tracking_number: '999990000016',
        carrier_shipment_identifier: 'retoure:999990000016',
        shipping_service: 'V07PAK',
        carrier_additional_info: { product: 'V07PAK', receiver_id: 'deu', label_format: 'pdf' },
      },
    });
    if (booked.kind === 'booked')
      expect(Buffer.from(booked.result.labels[0].kind === 'file' ? booked.result.labels[0].bytes : []).toString()).toContain(
        'retoure label',
      );
    expect(readReturnAnswer(400, dhlpdeFixture('return-refused'), plan)).toEqual({
      kind: 'refused',
      message: 'DHL refused the return label (HTTP 400): Bad Request: Postal code is invalid. Please use 99999 format.',
      field_errors: [{ path: ['from_address', 'postal_code'], message: 'DHL: Postal code is invalid. Please use 99999 format.' }],
    });
  });
});

describe('dhlpde: DHL’s answer → the booking', () => {
  const plan = planOrder(outboundRequest(), SETTINGS);

  it('reads the label DHL sent, as bytes, with the shipment number', () => {
    const outcome = readOrderAnswer(200, dhlpdeFixture('order-created'), answerContext(plan));
    expect(outcome.kind).toBe('booked');
    if (outcome.kind !== 'booked') return;
    expect(outcome.result).toMatchObject({
      status: 'ok',
      tracking_number: '003404341004',
      carrier_shipment_identifier: '003404341004',
      shipping_service: 'V01PAK',
      parcel_tracking_numbers: ['003404341004'],
      carrier_additional_info: { product: 'V01PAK', label_format: 'pdf' },
    });
    const [label] = outcome.result.labels;
    expect(label).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label', parcel_index: 0, tracking_number: '003404341004' });
    if (label.kind === 'file')
      expect(Buffer.from(label.bytes).toString()).toBe('%PDF-1.4\n% hand-written fixture: label 003404341004\n%%EOF\n');
  });

  it('keeps DHL’s warnings, reads ZPL as text, and lists every parcel’s label and customs paper', () => {
    const warned = readOrderAnswer(200, dhlpdeFixture('order-warning'), answerContext(plan));
    expect(warned).toMatchObject({
      kind: 'booked',
      result: { carrier_additional_info: { warnings: ['The street entered could not be found.'] } },
    });
    const zpl = readOrderAnswer(200, dhlpdeFixture('order-zpl'), { ...answerContext(plan), format: 'zpl' });
    expect(zpl).toMatchObject({ kind: 'booked', result: { labels: [{ format: 'zpl' }] } });
    const multiPlan = planOrder(
      outboundRequest({
        parcels: [
          { weight_grams: 500, dimensions_cm: null },
          { weight_grams: 700, dimensions_cm: null },
        ],
      }),
      SETTINGS,
    );
    const multi = readOrderAnswer(207, dhlpdeFixture('order-multi'), answerContext(multiPlan));
    expect(multi.kind).toBe('booked');
    if (multi.kind !== 'booked') return;
    expect(multi.result.parcel_tracking_numbers).toEqual(['003404341026', '003404341032']);
    expect(multi.result.carrier_shipment_identifier).toBe('003404341026,003404341032');
    expect(multi.result.labels.map((l) => [l.document_type, l.parcel_index, l.tracking_number])).toEqual([
      ['label', 0, '003404341026'],
      ['customs_declaration', 0, '003404341026'],
      ['label', 1, '003404341032'],
      ['customs_declaration', 1, '003404341032'],
    ]);
    const withReturn = readOrderAnswer(200, dhlpdeFixture('order-return-label'), answerContext(plan));
    expect(withReturn).toMatchObject({
      kind: 'booked',
      result: {
        labels: [{ tracking_number: '003404341054' }, { tracking_number: '999990000016', document_type: 'label' }],
        carrier_additional_info: { return_tracking_numbers: ['999990000016'] },
      },
    });
  });

  it('maps DHL’s validation messages to our fields, and keeps DHL’s words', () => {
    const refused = readOrderAnswer(400, dhlpdeFixture('order-refused'), answerContext(plan));
    expect(refused).toEqual({
      kind: 'refused',
      message: 'DHL refused the booking (HTTP 400): Bad Request: 0 of 1 shipment successfully created.',
      created: [],
      field_errors: [
        {
          path: ['recipient_address', 'postal_code'],
          message: 'DHL: The city entered does not match the postcode. The shipment is not codeable.',
        },
        { path: ['carrier_reference'], message: 'DHL: The billing number is not valid for the user group profile.' },
        { path: ['carrier_metadata', 'preferred_day'], message: 'DHL: The preferred day is not available for the postcode.' },
        { path: ['carrier_reference'], message: 'DHL: The shipment date lies in the past.' },
      ],
    });
    const customsPlan = planOrder(
      outboundRequest({ recipient: { ...SWISS_CONSUMER }, shipping_service: 'V53WPAK', line_items: SWISS_GOODS }),
      SETTINGS,
    );
    expect(readOrderAnswer(400, dhlpdeFixture('order-schema-error'), answerContext(customsPlan))).toMatchObject({
      kind: 'refused',
      field_errors: [
        { path: ['recipient_address', 'postal_code'], message: 'DHL: Parameter postalCode does not match the expected pattern.' },
        { path: ['line_items', 0, 'hs_code'], message: 'DHL: Parameter hsCode must be between 6 and 11 characters.' },
      ],
    });
  });

  it('a partly booked order is refused whole, naming what DHL created (to void) and the parcel it refused', () => {
    const twoParcels = planOrder(
      outboundRequest({
        parcels: [
          { weight_grams: 500, dimensions_cm: null },
          { weight_grams: 700, dimensions_cm: null },
        ],
      }),
      SETTINGS,
    );
    expect(readOrderAnswer(207, dhlpdeFixture('order-partial'), answerContext(twoParcels))).toEqual({
      kind: 'refused',
      message: 'DHL refused 1 of 2 parcels: Bad Request',
      created: ['003404341048'],
      field_errors: [
        { path: ['carrier_metadata', 'parcels', 1, 'weight'], message: 'DHL: The weight is too high for the chosen product.' },
      ],
    });
  });

  it('an answer it cannot read says what DHL created: a label only as a URL, a body without items', () => {
    expect(readOrderAnswer(200, dhlpdeFixture('order-no-label'), answerContext(plan))).toMatchObject({
      kind: 'unreadable',
      created: ['003404341004'],
      listed: true,
    });
    expect(readOrderAnswer(200, '<html>maintenance</html>', answerContext(plan))).toMatchObject({
      kind: 'unreadable',
      created: [],
      listed: false,
    });
  });

  it('reads a void: every shipment voided, or DHL’s reason', () => {
    expect(readCancelAnswer(200, dhlpdeFixture('cancel-ok'))).toEqual({ status: 'ok' });
    expect(readCancelAnswer(400, dhlpdeFixture('cancel-unknown'))).toEqual({
      status: 'error',
      message: 'DHL did not void the shipment 003404341004: UnknownShipmentNumber: Unknown shipment number.',
    });
  });
});

describe('dhlpde: Location Finder locations → PUDO records', () => {
  it('maps a Packstation, a post office with a lunch break and a holiday, and a parcel shop', () => {
    const records = mapLocations(dhlpdeFixture('locations-bonn'), 'dhlpde', NOW)!;
    // The entry without a point is left out, the repeated one kept once.
    expect(records.map((r) => r.pudo_location_id)).toEqual(['8007-453110118', '8003-4011502', '8004-4233417']);
    const [packstation, postOffice, parcelShop] = records;
    expect(packstation).toMatchObject({
      pudo_location_uuid: carrierPudoUuid('dhlpde', '8007-453110118'),
      uuid: carrierPudoUuid('dhlpde', '8007-453110118'),
      carrier_id: 'dhlpde',
      lat: 50.7341,
      lng: 7.0982,
      services: ['drop_off', 'returns', 'pick_up'],
      address: {
        location_type: 'locker',
        mapped_location_type: 'parcel_locker',
        address_name: 'DHL Packstation 118',
        line1: 'Beispielweg 4a',
        street_name: 'Beispielweg',
        house_number: '4a',
        postal_code: '53111',
        city: 'Bonn',
        country: 'Germany',
        country_code: 'DE',
      },
      additional_info: { keyword: 'DHL Packstation', keyword_id: '118', needs_post_number: true, available_capacity: 'high' },
      validity_period: { from_date: '2026-11-24', to_date: null },
      updated_date: NOW.toISOString(),
      distance_meters: 140,
    });
    expect(packstation.opening_hours).toHaveLength(7);
    expect(packstation.operating_hours_calc[0]).toEqual({
      service_name: 'drop_off',
      operating_day: 'monday',
      time_zone: 'Europe/Berlin',
      first_open_hours: '00:00-23:59',
      second_open_hours: null,
      first_cutoff: null,
      second_cutoff: null,
    });
    expect(postOffice.address.mapped_location_type).toBe('post_office');
    expect(postOffice.lat).toBe(50.7362);
    expect(postOffice.opening_hours.filter((h) => h.day_of_week === 'monday')).toEqual([
      { day_of_week: 'monday', open_hour: '09:00', close_hour: '12:30' },
      { day_of_week: 'monday', open_hour: '14:00', close_hour: '18:00' },
    ]);
    expect(postOffice.operating_hours_calc.find((h) => h.operating_day === 'monday' && h.service_name === 'pick_up')).toMatchObject({
      first_open_hours: '09:00-12:30',
      second_open_hours: '14:00-18:00',
    });
    expect(postOffice.operating_hours_calc.some((h) => h.operating_day === 'sunday')).toBe(false);
    expect(postOffice.closing_periods).toEqual([{ from_date: '2026-12-24', to_date: '2026-12-26', reason: 'holiday' }]);
    expect(postOffice.additional_info.service_types).toContain('postident');
    expect(parcelShop.address).toMatchObject({ mapped_location_type: 'parcel_shop', address_name: 'Kiosk am Fixturenplatz' });
    expect(mapLocations({ unexpected: true }, 'dhlpde', NOW)).toBeNull();
    expect(mapLocation(shop, 'other1', NOW)?.pudo_location_uuid).toBe(carrierPudoUuid('other1', '8004-4233417'));
  });

  it('splits street addresses into street and house number', () => {
    expect(splitStreet('Charles-de-Gaulle-Str. 20')).toEqual({ street: 'Charles-de-Gaulle-Str.', number: '20' });
    expect(splitStreet('Erfundene Straße 12-14')).toEqual({ street: 'Erfundene Straße', number: '12-14' });
    expect(splitStreet('Am Markt')).toEqual({ street: 'Am Markt', number: '' });
  });
});
