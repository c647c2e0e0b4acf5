import type { LabelInput } from '../../src/documents/label.types.js';

/** A complete label input; override fields per test. */
export function sampleLabelInput(overrides: Partial<LabelInput> = {}): LabelInput {
  return {
    sender: {
      company: 'Acme Versand GmbH',
      street_name: 'Friedrichstraße',
      house_number: '123',
      postal_code: '10117',
      city: 'Berlin',
      country_code: 'DE',
      phone: '+493012345678',
    },
    recipient: {
      first_name: 'Zoë',
      last_name: 'van der Berg',
      line1: 'Keizersgracht 452',
      postal_code: '1016 GD',
      city: 'Amsterdam',
      country_code: 'NL',
    },
    carrier_name: 'Waybill Sandbox',
    service_name: 'Parcel Standard',
    weight_grams: 2350,
    tracking_number: 'SBX1234567890DE',
    shipment_id: 'ORDER-10042',
    shipment_reference: 'REF-77',
    pudo_location_name: 'Kiosk Prinsengracht',
    date: '2026-01-15',
    ...overrides,
  };
}
