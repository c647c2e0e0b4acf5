import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { InpostCarrier } from '../../src/carriers/inpost/inpost.carrier.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';

/**
 * InPost booking, lookup, cancellation and parcel locker search against ShipX's sandbox
 * (`sandbox-api-shipx-pl.easypack24.net`), run by `npm run test:live` only when `WAYBILL_LIVE_INPOST_API_TOKEN` and
 * `WAYBILL_LIVE_INPOST_ORGANIZATION_ID` are set and `WAYBILL_LIVE_INPOST_ENVIRONMENT` is `sandbox` (never against
 * production: a shipment bought there is billed). Sandbox tokens come from the sandbox Parcel Manager. Optional:
 * `WAYBILL_LIVE_INPOST_TARGET_POINT`, a locker the sandbox knows (default KRA010), and `…_SENDER` / `…_RECIPIENT`,
 * JSON addresses in the interface's Address fields (default: two invented Polish addresses). Asserts the
 * contract's invariants, not InPost's data.
 */
const env = process.env;
const settings = {
  api_token: env.WAYBILL_LIVE_INPOST_API_TOKEN,
  organization_id: env.WAYBILL_LIVE_INPOST_ORGANIZATION_ID,
  environment: env.WAYBILL_LIVE_INPOST_ENVIRONMENT,
};
const configured = Boolean(settings.api_token && settings.organization_id) && settings.environment === 'sandbox';
const targetPoint = env.WAYBILL_LIVE_INPOST_TARGET_POINT ?? 'KRA010';

const sender = env.WAYBILL_LIVE_INPOST_SENDER
  ? JSON.parse(env.WAYBILL_LIVE_INPOST_SENDER)
  : {
      company: 'Waybill Test Sender',
      first_name: 'Test',
      last_name: 'Sender',
      line1: 'Pawia 9',
      city: 'Kraków',
      postal_code: '31-154',
      country_code: 'PL',
      phone: '+48 500 100 200',
      email: 'sender@example.com',
    };
const recipient = env.WAYBILL_LIVE_INPOST_RECIPIENT
  ? JSON.parse(env.WAYBILL_LIVE_INPOST_RECIPIENT)
  : {
      first_name: 'Test',
      last_name: 'Recipient',
      line1: 'Czerniakowska 87',
      city: 'Warszawa',
      postal_code: '00-718',
      country_code: 'PL',
      phone: '+48 600 100 200',
      email: 'recipient@example.com',
    };

function request(overrides: Partial<BookRequest> = {}): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  const parcel = { weight_grams: 1200, dimensions_cm: { length: 30, width: 20, height: 8 } };
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: 'inpost_courier_standard',
    sender,
    recipient,
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: parcel.weight_grams,
    dimensions_cm: parcel.dimensions_cm,
    shipment_reference: 'WAYBILL-LIVE',
    pudo_location: null,
    carrier_metadata: {},
    date: new Date().toISOString().slice(0, 10),
    parcels: [parcel],
    line_items: [],
    shipment_value: null,
    description_of_goods: null,
    booking_reference: reference,
    ...overrides,
  };
}

describe.skipIf(!configured)('inpost live booking (ShipX sandbox; WAYBILL_LIVE_INPOST_… set)', () => {
  const adapter = new InpostCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });

  it('books a courier parcel, finds it by its reference, and asks to cancel it; no secret in any result', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    // A sandbox slow to buy the offer answers outcome_unknown: the lookup below settles it.
    expect(result.status === 'ok' || (result.status === 'error' && typeof result.message === 'string'), JSON.stringify(result)).toBe(true);
    if (result.status === 'ok') {
      expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
      expect(
        Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes)
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
    }
    const found = await adapter.findBooking(booking, settings, options());
    expect(['found', 'not_found', 'error']).toContain(found.status);
    const id =
      result.status === 'ok'
        ? result.carrier_shipment_identifier
        : found.status === 'found'
          ? found.result.carrier_shipment_identifier
          : null;
    const cancelled = id ? await adapter.cancel(id, settings, options()) : null;
    if (cancelled) expect(cancelled.status === 'ok' || (cancelled.status === 'error' && cancelled.retryable === false)).toBe(true);
    expect(JSON.stringify([result, found, cancelled])).not.toContain(settings.api_token as string);
  });

  it('books a parcel to a locker as ZPL', async () => {
    const booking = request({
      shipping_service: 'inpost_locker_standard',
      carrier_metadata: { target_point: targetPoint, parcel_template: 'small', label_format: 'zpl' },
    });
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(['ok', 'error']).toContain(result.status);
    if (result.status === 'ok') expect(result.labels[0].format).toBe('zpl');
  });

  it('searches parcel lockers near a point', async () => {
    const answer = await adapter.searchPudo({ lat: 50.0617, lng: 19.9373, radius_meters: 2_000, limit: 10 }, settings, options());
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok') return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('inpost');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
  });
});
