import fc from 'fast-check';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from '../../../src/carriers/upsglb/upsglb.errors.js';
import { bookedLabels } from '../../../src/carriers/upsglb/upsglb.labels.js';
import { errorsOf } from '../../../src/carriers/upsglb/upsglb.mapper.js';
import {
  readRecovery,
  readVoid,
  recoveryByReference,
  recoveryByTrackingNumber,
  saysNotFound,
} from '../../../src/carriers/upsglb/upsglb.recovery.js';
import { readShipResponse, shipRequest } from '../../../src/carriers/upsglb/upsglb.ship.js';
import { LabelConversionError } from '../../../src/documents/label-convert.js';
import { accessPoint, bookRequest, CONSUMER_CH, CONSUMER_US, MERCHANT_US, SOCKS } from './ups-book-requests.js';
import { gifLabel, gifPixels, invoicePdf, zplLabel } from './ups-labels.js';
import { fixture } from './ups-server.js';
import { BOOKING_SETTINGS, SHIPPER_NUMBER } from './ups-shipping-server.js';
import { specProblems } from './ups-spec.js';

/** A fixture with its `{{LABEL_n}}`/`{{FORM}}` placeholders filled with images made here. */
function filled(name: string, images: Record<string, Buffer>): any {
  let text = JSON.stringify(fixture(name));
  for (const [key, bytes] of Object.entries(images)) text = text.split(`{{${key}}}`).join(bytes.toString('base64'));
  return JSON.parse(text);
}

const request = (overrides = {}) => shipRequest(bookRequest(overrides), BOOKING_SETTINGS, 'pdf') as any;

describe('UPS ship request', () => {
  it('DE → NL: Shipper with the account number, kg and cm, the references on the shipment, GIF label; valid per UPS’s schema', () => {
    const body = request();
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    const shipment = body.ShipmentRequest.Shipment;
    expect(shipment.Shipper).toEqual({
      Name: 'Acme Warehouse',
      AttentionName: 'Jana Vogt',
      Phone: { Number: '49401234567' },
      EMailAddress: 'shipping@acme.example',
      Address: { AddressLine: ['Lagerstraße 5'], City: 'Hamburg', PostalCode: '20095', CountryCode: 'DE' },
      ShipperNumber: SHIPPER_NUMBER,
    });
    expect(shipment.ShipTo.Address).toEqual({
      AddressLine: ['Keizersgracht 1'],
      City: 'Amsterdam',
      PostalCode: '1015CJ',
      CountryCode: 'NL',
      ResidentialAddressIndicator: '',
    });
    expect(shipment.ShipFrom).toBeUndefined();
    expect(shipment.PaymentInformation).toEqual({ ShipmentCharge: [{ Type: '01', BillShipper: { AccountNumber: SHIPPER_NUMBER } }] });
    expect(shipment.ReferenceNumber).toEqual([{ Value: 'WB0B6F4F1E8F4C4D3E9A' }, { Value: 'ORDER-1001' }]);
    expect(shipment.Service).toEqual({ Code: '11', Description: 'UPS Standard' });
    expect(shipment.Package).toEqual([
      {
        Description: 'Socks',
        Packaging: { Code: '02' },
        Dimensions: { UnitOfMeasurement: { Code: 'CM' }, Length: '30', Width: '20', Height: '10' },
        PackageWeight: { UnitOfMeasurement: { Code: 'KGS' }, Weight: '1.3' },
      },
    ]);
    expect(shipment.ShipmentServiceOptions).toBeUndefined();
    expect(shipment.ShipmentRatingOptions).toBeUndefined();
    expect(body.ShipmentRequest.LabelSpecification).toEqual({
      LabelImageFormat: { Code: 'GIF' },
      HTTPUserAgent: 'Mozilla/4.5',
      LabelStockSize: { Height: '6', Width: '4' },
    });
    expect(body.ShipmentRequest.Request.TransactionReference.CustomerContext).toBe('WB0B6F4F1E8F4C4D3E9A');
    const zpl = shipRequest(bookRequest(), { ...BOOKING_SETTINGS, negotiated_rates: true }, 'zpl') as any;
    expect(zpl.ShipmentRequest.LabelSpecification.LabelImageFormat.Code).toBe('ZPL');
    expect(zpl.ShipmentRequest.Shipment.ShipmentRatingOptions).toEqual({ NegotiatedRatesIndicator: '' });
  });

  it('US domestic: pounds and inches, 10-digit phones, digits-only ZIP, references on each package', () => {
    const body = request({
      sender: { ...MERCHANT_US },
      recipient: { ...CONSUMER_US },
      shipping_service: '03',
      parcels: [
        { weight_grams: 2000, dimensions_cm: { length: 20, width: 40, height: 10 } },
        { weight_grams: 100, dimensions_cm: null },
      ],
    });
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    const shipment = body.ShipmentRequest.Shipment;
    expect(shipment.ReferenceNumber).toBeUndefined();
    expect(shipment.Shipper.Phone.Number).toBe('6145550101');
    expect(shipment.ShipTo.Phone.Number).toBe('2015550188');
    expect(shipment.ShipTo.Address).toMatchObject({
      AddressLine: ['12 Cedar Lane', 'Apt 4'],
      StateProvinceCode: 'NJ',
      PostalCode: '070011234',
    });
    expect(shipment.Package).toEqual([
      {
        Description: 'Socks',
        Packaging: { Code: '02' },
        Dimensions: { UnitOfMeasurement: { Code: 'IN' }, Length: '16', Width: '8', Height: '4' },
        PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '4.5' },
        ReferenceNumber: [{ Value: 'WB0B6F4F1E8F4C4D3E9A' }, { Value: 'ORDER-1001' }],
      },
      {
        Description: 'Socks',
        Packaging: { Code: '02' },
        PackageWeight: { UnitOfMeasurement: { Code: 'LBS' }, Weight: '0.3' },
        ReferenceNumber: [{ Value: 'WB0B6F4F1E8F4C4D3E9A' }, { Value: 'ORDER-1001' }],
      },
    ]);
  });

  it('DE → CH: a commercial invoice of the line items, sold to the addressee', () => {
    const body = request({ recipient: { ...CONSUMER_CH }, line_items: [SOCKS], carrier_metadata: { terms_of_shipment: 'DAP' } });
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    expect(body.ShipmentRequest.Shipment.ShipmentServiceOptions.InternationalForms).toEqual({
      FormType: ['01'],
      InvoiceNumber: 'ORDER-1001',
      InvoiceDate: '20261123',
      Contacts: {
        SoldTo: {
          Name: 'Urs Meier',
          AttentionName: 'Urs Meier',
          Phone: { Number: '41441234567' },
          Address: { AddressLine: ['Bahnhofstrasse 10'], City: 'Zürich', PostalCode: '8001', CountryCode: 'CH' },
        },
      },
      ReasonForExport: 'SALE',
      TermsOfShipment: 'DAP',
      CurrencyCode: 'EUR',
      Product: [
        {
          Description: ['Knitted wool socks'],
          Unit: { Number: '2', UnitOfMeasurement: { Code: 'PCS' }, Value: '12.50' },
          CommodityCode: '611595',
          OriginCountryCode: 'PT',
          PartNumber: 'SKU-SOCK-1',
        },
      ],
    });
  });

  it('a return: Print Return Label, the merchant as Shipper and ShipTo, the consumer as ShipFrom, a partial invoice across customs', () => {
    const body = request({
      type_of_shipment: 'return',
      sender: { ...CONSUMER_CH },
      recipient: bookRequest().sender,
      sender_field: 'from_address',
      recipient_field: 'to_address',
      line_items: [SOCKS],
    });
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    const shipment = body.ShipmentRequest.Shipment;
    expect(shipment.ReturnService).toEqual({ Code: '9', Description: 'UPS Print Return Label' });
    expect(shipment.Shipper).toMatchObject({ Name: 'Acme Warehouse', ShipperNumber: SHIPPER_NUMBER, Address: { City: 'Hamburg' } });
    expect(shipment.ShipTo.Address.City).toBe('Hamburg');
    expect(shipment.ShipTo.Address.ResidentialAddressIndicator).toBeUndefined();
    expect(shipment.ShipFrom).toMatchObject({ Name: 'Urs Meier', Address: { City: 'Zürich', CountryCode: 'CH' } });
    expect(shipment.ShipmentServiceOptions.InternationalForms).toMatchObject({ FormType: ['05'], ReasonForExport: 'RETURN' });
    expect(shipment.ShipmentServiceOptions.InternationalForms.InvoiceNumber).toBeUndefined();
  });

  it('to an Access Point: AlternateDeliveryAddress, the indication type and the e-mail notification', () => {
    const body = request({ pudo_location: accessPoint(), carrier_metadata: { shipment_indication_type: '02' } });
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    const shipment = body.ShipmentRequest.Shipment;
    expect(shipment.AlternateDeliveryAddress).toEqual({
      Name: 'Kiosk De Gracht',
      AttentionName: 'Ada Lovelace',
      UPSAccessPointID: 'NL0004711',
      Address: { AddressLine: ['Prinsenstraat 12'], City: 'AMSTERDAM', StateProvinceCode: 'NH', PostalCode: '1015DB', CountryCode: 'NL' },
    });
    expect(shipment.ShipmentIndicationType).toEqual([{ Code: '02' }]);
    expect(shipment.ShipmentServiceOptions.Notification).toEqual([
      { NotificationCode: '012', EMail: { EMailAddress: ['ada@example.org'] } },
    ]);
    expect(request({ pudo_location: accessPoint() }).ShipmentRequest.Shipment.ShipmentIndicationType).toEqual([{ Code: '01' }]);
  });

  it('US → CA: the invoice line total UPS requires for that route', () => {
    const body = request({
      sender: { ...MERCHANT_US },
      recipient: {
        first_name: 'Anne',
        line1: '34 Queen St',
        city: 'Toronto',
        state_or_province: 'ON',
        postal_code: 'M5C 2M6',
        country_code: 'CA',
        phone: '+1 416 555 0100',
      },
      shipping_service: '11',
      line_items: [{ ...SOCKS, currency_code: 'USD' }],
    });
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([]);
    expect(body.ShipmentRequest.Shipment.InvoiceLineTotal).toEqual({ CurrencyCode: 'USD', MonetaryValue: '25' });
    expect(body.ShipmentRequest.Shipment.ShipTo.Address.PostalCode).toBe('M5C2M6');
  });

  it('the schema check is not vacuous: a request without a Shipper fails it', () => {
    const body = request();
    delete body.ShipmentRequest.Shipment.Shipper;
    expect(specProblems('SHIPRequestWrapper', body)).toEqual([expect.stringContaining("required property 'Shipper'")]);
  });
});

describe('UPS ship answer and labels', () => {
  it('one package: GIF label converted to a 4 x 6 in PDF (default) or PNG, pixel for pixel; charges and alerts kept', async () => {
    const gif = gifLabel('1ZWB4Y820400000013');
    const result = readShipResponse(filled('ship', { LABEL_1: gif }));
    expect(result).toMatchObject({
      shipmentId: '1ZWB4Y820400000013',
      charges: { amount: '18.40', currency: 'EUR' },
      billingWeight: { weight: '1.5', unit: 'KGS' },
      alerts: [{ code: '120900', message: expect.stringContaining('negotiated rates') }],
      forms: [],
    });
    const [pdf] = await bookedLabels(result!.packages, result!.forms, 'pdf');
    expect(pdf).toMatchObject({
      kind: 'file',
      format: 'pdf',
      document_type: 'label',
      parcel_index: 0,
      tracking_number: '1ZWB4Y820400000013',
    });
    const pdfText = Buffer.from((pdf as { bytes: Uint8Array }).bytes).toString('latin1');
    expect(pdfText.startsWith('%PDF-')).toBe(true);
    expect(pdfText).toMatch(/\/MediaBox \[0 0 288 432\]/);
    expect(pdfText).toMatch(/\/Width 1400[\s\S]*\/Height 800|\/Height 800[\s\S]*\/Width 1400/);
    const [png] = await bookedLabels(result!.packages, [], 'png');
    const decoded = PNG.sync.read(Buffer.from((png as { bytes: Uint8Array }).bytes));
    const source = gifPixels(gif);
    expect([decoded.width, decoded.height]).toEqual([source.width, source.height]);
    expect(Buffer.from(decoded.data).equals(Buffer.from(source.rgba))).toBe(true);
  });

  it('three packages with ZPL labels, one per parcel in order; the ZPL kept byte for byte', async () => {
    const zpl = ['1ZWB4Y820400000022', '1ZWB4Y820400000031', '1ZWB4Y820400000040'].map((n) => Buffer.from(zplLabel(n)));
    const result = readShipResponse(filled('ship-multi', { LABEL_1: zpl[0], LABEL_2: zpl[1], LABEL_3: zpl[2] }));
    expect(result?.negotiatedCharges).toEqual({ amount: '41.75', currency: 'USD' });
    const labels = await bookedLabels(result!.packages, result!.forms, 'pdf');
    expect(labels.map((l) => [l.format, l.parcel_index, l.tracking_number])).toEqual([
      ['zpl', 0, '1ZWB4Y820400000022'],
      ['zpl', 1, '1ZWB4Y820400000031'],
      ['zpl', 2, '1ZWB4Y820400000040'],
    ]);
    for (const [i, label] of labels.entries()) expect(Buffer.from((label as { bytes: Uint8Array }).bytes).equals(zpl[i])).toBe(true);
  });

  it('international: the invoice comes back as a customs declaration document', async () => {
    const form = await invoicePdf('1ZWB4Y820400000059', ['Knitted wool socks']);
    const result = readShipResponse(filled('ship-international', { LABEL_1: gifLabel('1ZWB4Y820400000059'), FORM: form }));
    const labels = await bookedLabels(result!.packages, result!.forms, 'png');
    expect(labels.map((l) => [l.document_type ?? 'label', l.format])).toEqual([
      ['label', 'png'],
      ['customs_declaration', 'pdf'],
    ]);
    expect(Buffer.from((labels[1] as { bytes: Uint8Array }).bytes).equals(form)).toBe(true);
  });

  it('a label that is not a GIF, or a package without a label, is a conversion error', async () => {
    const broken = readShipResponse(filled('ship', { LABEL_1: Buffer.from('not a gif at all') }));
    await expect(bookedLabels(broken!.packages, [], 'pdf')).rejects.toBeInstanceOf(LabelConversionError);
    await expect(bookedLabels([{ trackingNumber: '1Z', label: null }], [], 'pdf')).rejects.toBeInstanceOf(LabelConversionError);
    await expect(bookedLabels([{ trackingNumber: '1Z', label: { code: 'EPL', bytes: Buffer.from('N') } }], [], 'pdf')).rejects.toThrow(
      /EPL/,
    );
  });

  it('an answer that is not a ShipmentResponse is unreadable; any JSON maps without a throw', () => {
    expect(readShipResponse({ ShipmentResponse: { ShipmentResults: { PackageResults: [] } } })).toBeNull();
    expect(readShipResponse('<html>')).toBeNull();
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        readShipResponse(value);
        readShipResponse({ ShipmentResponse: { ShipmentResults: value } });
        readRecovery(value);
        readRecovery({ LabelRecoveryResponse: value });
        readVoid(value);
        readVoid({ VoidShipmentResponse: { SummaryResult: value } });
      }),
      { numRuns: 300 },
    );
  });
});

describe('UPS refusals → our fields', () => {
  const refusal = (code: string, message: string) => [{ code, message }];

  it('maps the documented codes to the fields they name', () => {
    const outbound = bookRequest();
    expect(fieldErrorsOf(errorsOf(fixture('ship-bad-request')), outbound)).toEqual([
      {
        path: ['recipient_address', 'postal_code'],
        message: 'UPS refused it: 120207: Missing/Invalid ShipTo PostalCode. Postal Code length must be 5 or 9 digits.',
      },
    ]);
    expect(fieldErrorsOf(refusal('120100', 'Missing or invalid shipper number'), outbound)[0]).toEqual({
      path: ['carrier_reference'],
      message: expect.stringContaining('settings.account_number'),
    });
    expect(fieldErrorsOf(refusal('121100', 'The requested service is invalid for the shipment origin'), outbound)[0].path).toEqual([
      'shipping_service',
    ]);
    expect(fieldErrorsOf(refusal('120801', 'Address Validation Error on Shipper address'), outbound)[0].path).toEqual(['sender_address']);
    // In a return the Shipper is the merchant: the address the parcel goes back to.
    const ret = bookRequest({ type_of_shipment: 'return', sender_field: 'from_address', recipient_field: 'to_address' });
    expect(fieldErrorsOf(refusal('120801', 'Address Validation Error on Shipper address'), ret)[0].path).toEqual(['to_address']);
  });

  it('matches UPS’s wording of a party and a field when the code is not in the table', () => {
    const outbound = bookRequest();
    const paths = (message: string) => fieldErrorsOf(refusal('129999', message), outbound).map((e) => e.path.join('.'));
    expect(paths('Missing or invalid ship to city')).toEqual(['recipient_address.city']);
    expect(paths('Invalid ShipTo StateProvinceCode')).toEqual(['recipient_address.state_or_province']);
    expect(paths('Shipper phone number is invalid')).toEqual(['sender_address.phone']);
    expect(paths('Missing or invalid ship to name')).toEqual(['recipient_address.first_name']);
    expect(paths('Invalid AlternateDeliveryAddress')).toEqual(['pudo_location_uuid']);
    expect(paths('Package weight exceeds the maximum')).toEqual(['weight']);
    expect(errorsOf(fixture('ship-refused'))).toHaveLength(1);
    expect(fieldErrorsOf(errorsOf(fixture('ship-refused')), outbound)).toEqual([]);
  });
});

describe('UPS label recovery and void', () => {
  it('recovery requests by reference and by tracking number are valid per UPS’s schema', () => {
    const byReference = recoveryByReference('WB0B6F4F1E8F4C4D3E9A', 'wb4y82', 'pdf');
    expect(specProblems('LABELRECOVERYRequestWrapper', byReference)).toEqual([]);
    expect(byReference.LabelRecoveryRequest).toMatchObject({
      ReferenceValues: { ReferenceNumber: { Value: 'WB0B6F4F1E8F4C4D3E9A' }, ShipperNumber: 'WB4Y82' },
      LabelSpecification: { LabelImageFormat: { Code: 'GIF' } },
    });
    const byNumber = recoveryByTrackingNumber('1ZWB4Y820400000013', 'zpl');
    expect(specProblems('LABELRECOVERYRequestWrapper', byNumber)).toEqual([]);
    expect(byNumber.LabelRecoveryRequest).toMatchObject({
      TrackingNumber: '1ZWB4Y820400000013',
      LabelSpecification: { LabelImageFormat: { Code: 'ZPL' } },
    });
  });

  it('reads the labels found, or the candidates, and knows UPS’s "not found"', () => {
    const gif = gifLabel('1ZWB4Y820400000013');
    expect(readRecovery(filled('recovery', { LABEL_1: gif }))).toEqual({
      shipmentId: '1ZWB4Y820400000013',
      packages: [{ trackingNumber: '1ZWB4Y820400000013', label: { code: 'GIF', bytes: gif } }],
      candidates: [],
    });
    expect(readRecovery(fixture('recovery-candidates'))).toEqual({ shipmentId: null, packages: [], candidates: ['1ZWB4Y820400000022'] });
    const notFound = (fixture('recovery-not-found') as { response: { errors: Array<{ message: string }> } }).response.errors;
    expect(saysNotFound(notFound)).toBe(true);
    expect(saysNotFound([{ message: 'No shipment found within the allowed void period' }])).toBe(true);
    expect(saysNotFound([{ message: 'Invalid request' }])).toBe(false);
  });

  it('reads a void: voided (status 1), not voided, CIE’s carriage returns, unreadable', () => {
    expect(readVoid(fixture('void'))).toEqual({ voided: true, description: 'Voided' });
    expect(
      readVoid({ VoidShipmentResponse: { SummaryResult: { Status: { Code: '&#xD;&#xD;&#xD;1', Description: '&#xD;Voided' } } } }),
    ).toEqual({
      voided: true,
      description: 'Voided',
    });
    expect(readVoid({ VoidShipmentResponse: { SummaryResult: { Status: { Code: '0', Description: 'Not Voided' } } } })?.voided).toBe(false);
    expect(readVoid({})).toBeNull();
  });
});
