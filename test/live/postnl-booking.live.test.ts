import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { PostnlCarrier } from '../../src/carriers/postnl/postnl.carrier.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';

/**
 * PostNL booking, lookup, cancel and PostNL point search against PostNL's sandbox (api-sandbox.postnl.nl), run by
 * `npm run test:live` only when `WAYBILL_LIVE_POSTNL_API_KEY` is set and `WAYBILL_LIVE_POSTNL_ENVIRONMENT` is
 * `sandbox` (never against production: a confirmed label there is a parcel announced to PostNL). Optional:
 * `WAYBILL_LIVE_POSTNL_CUSTOMER_CODE` and `…_CUSTOMER_NUMBER` (default: PostNL's sandbox customer DEVC, 11223344),
 * `…_COLLECTION_LOCATION`. The addresses are invented Dutch ones. Asserts the contract's invariants, not PostNL's data.
 */
const env = process.env;
const settings: Record<string, unknown> = {
  api_key: env.WAYBILL_LIVE_POSTNL_API_KEY,
  environment: env.WAYBILL_LIVE_POSTNL_ENVIRONMENT,
  customer_code: env.WAYBILL_LIVE_POSTNL_CUSTOMER_CODE ?? 'DEVC',
  customer_number: env.WAYBILL_LIVE_POSTNL_CUSTOMER_NUMBER ?? '11223344',
  ...(env.WAYBILL_LIVE_POSTNL_COLLECTION_LOCATION ? { collection_location: env.WAYBILL_LIVE_POSTNL_COLLECTION_LOCATION } : {}),
};
const configured = Boolean(settings.api_key) && settings.environment === 'sandbox';

const merchant = {
  company: 'Waybill Testwinkel',
  first_name: 'Test',
  last_name: 'Afzender',
  street_name: 'Siriusdreef',
  house_number: '42',
  city: 'Hoofddorp',
  postal_code: '2132 WT',
  country_code: 'NL',
  email: 'afzender@example.com',
};
const consumer = {
  first_name: 'Test',
  last_name: 'Ontvanger',
  street_name: 'Bilderdijkstraat',
  house_number: '9',
  city: 'Utrecht',
  postal_code: '3532 VA',
  country_code: 'NL',
  email: 'ontvanger@example.com',
  phone: '+31 6 12345678',
};

function request(overrides: Partial<BookRequest> = {}): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: '3085',
    sender: merchant,
    recipient: consumer,
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: 1200,
    dimensions_cm: { length: 30, width: 20, height: 10 },
    shipment_reference: 'WAYBILL-LIVE',
    pudo_location: null,
    carrier_metadata: {},
    date: new Date().toISOString().slice(0, 10),
    parcels: [{ weight_grams: 1200, dimensions_cm: { length: 30, width: 20, height: 10 } }],
    line_items: [],
    shipment_value: null,
    description_of_goods: 'Test goods',
    booking_reference: reference,
    ...overrides,
  };
}

describe.skipIf(!configured)('postnl live booking (sandbox; WAYBILL_LIVE_POSTNL_… set)', () => {
  const adapter = new PostnlCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });
  const secretFree = (value: unknown) => expect(JSON.stringify(value)).not.toContain(String(settings.api_key));

  it('books an outbound label, looks it up by its reference, and cancels it', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.tracking_number).toMatch(/^3S[A-Z0-9]{9,13}$/);
    expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
    expect(
      Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const found = await adapter.findBooking(booking, settings, options());
    expect(['found', 'not_found', 'error']).toContain(found.status);
    const cancelled = await adapter.cancel(result.carrier_shipment_identifier, settings, options());
    expect(cancelled.status === 'ok' || (cancelled.status === 'error' && typeof cancelled.message === 'string')).toBe(true);
    secretFree([result, found, cancelled]);
  });

  it('books a return label (2285) in ZPL', async () => {
    const booking = request({
      type_of_shipment: 'return',
      shipping_service: '2285',
      sender: consumer,
      recipient: merchant,
      carrier_metadata: { label_format: 'zpl' },
    });
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status === 'ok') expect(result.labels[0]).toMatchObject({ format: 'zpl' });
    secretFree(result);
  });

  it('finds PostNL points near a postal code and books a parcel to the first (3533)', async () => {
    const answer = await adapter.searchPudo(
      { postal_code: '3532VA', country_code: 'NL', radius_meters: 5000, limit: 10 },
      settings,
      options(),
    );
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok' || answer.locations.length === 0) return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('postnl');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
    const booking = request({ shipping_service: '3533', pudo_location: answer.locations[0] });
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    secretFree([answer, result]);
  });
});
