import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';
import { UspsCarrier } from '../../src/carriers/uspsus/uspsus.carrier.js';

/**
 * USPS labels, cancellation and Post Office search against USPS's test environment (TEM, apis-tem.usps.com),
 * run by `npm run test:live` only when `WAYBILL_LIVE_USPSUS_CLIENT_ID`, `…_CLIENT_SECRET`, `…_CRID`, `…_MID` and
 * `…_ACCOUNT_NUMBER` are set and `…_ENVIRONMENT` is `sandbox` (never against production: a label there spends
 * postage). Optional: `…_MANIFEST_MID`, `…_ACCOUNT_TYPE` (EPS, the default, or PERMIT with `…_PERMIT_ZIP`),
 * `…_SHIP_FROM` / `…_SHIP_TO` (JSON addresses in the interface's Address fields; default two invented addresses
 * on real streets of Washington, DC and St. Louis, MO, which USPS's address check accepts). Asserts the
 * contract's invariants, not USPS's data.
 */
const env = process.env;
const settings = Object.fromEntries(
  Object.entries({
    client_id: env.WAYBILL_LIVE_USPSUS_CLIENT_ID,
    client_secret: env.WAYBILL_LIVE_USPSUS_CLIENT_SECRET,
    environment: env.WAYBILL_LIVE_USPSUS_ENVIRONMENT,
    crid: env.WAYBILL_LIVE_USPSUS_CRID,
    mid: env.WAYBILL_LIVE_USPSUS_MID,
    manifest_mid: env.WAYBILL_LIVE_USPSUS_MANIFEST_MID,
    account_type: env.WAYBILL_LIVE_USPSUS_ACCOUNT_TYPE,
    account_number: env.WAYBILL_LIVE_USPSUS_ACCOUNT_NUMBER,
    permit_zip: env.WAYBILL_LIVE_USPSUS_PERMIT_ZIP,
  }).filter(([, value]) => value !== undefined && value !== ''),
) as Record<string, string>;
const configured =
  Boolean(settings.client_id && settings.client_secret && settings.crid && settings.mid && settings.account_number) &&
  settings.environment === 'sandbox';

const shipFrom = env.WAYBILL_LIVE_USPSUS_SHIP_FROM
  ? JSON.parse(env.WAYBILL_LIVE_USPSUS_SHIP_FROM)
  : {
      company: 'Waybill Test Shipper',
      first_name: 'Test',
      last_name: 'Shipper',
      line1: '475 L Enfant Plz SW',
      city: 'Washington',
      state_or_province: 'DC',
      postal_code: '20260',
      country_code: 'US',
      phone: '+1 202 555 0100',
      email: 'shipper@example.com',
    };
const shipTo = env.WAYBILL_LIVE_USPSUS_SHIP_TO
  ? JSON.parse(env.WAYBILL_LIVE_USPSUS_SHIP_TO)
  : {
      first_name: 'Test',
      last_name: 'Addressee',
      line1: '1720 Market St',
      city: 'Saint Louis',
      state_or_province: 'MO',
      postal_code: '63155',
      country_code: 'US',
      phone: '+1 314 555 0199',
      email: 'addressee@example.com',
    };

function request(overrides: Partial<BookRequest> = {}): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  const parcel = { weight_grams: 900, dimensions_cm: { length: 25, width: 18, height: 8 } };
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: 'USPS_GROUND_ADVANTAGE',
    sender: shipFrom,
    recipient: shipTo,
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
    description_of_goods: 'Test goods',
    booking_reference: reference,
    ...overrides,
  };
}

describe.skipIf(!configured)('uspsus live booking (TEM; WAYBILL_LIVE_USPSUS_… set)', () => {
  const adapter = new UspsCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });
  const secrets = () => [settings.client_secret, settings.client_id];

  it('makes a label, cancels it; no secret in any result', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.tracking_number).toMatch(/^[0-9A-Z]{20,34}$/);
    expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
    const cancelled = await adapter.cancel(result.carrier_shipment_identifier, settings, options());
    expect(cancelled.status === 'ok' || (cancelled.status === 'error' && typeof cancelled.message === 'string')).toBe(true);
    const text = JSON.stringify([result, cancelled]);
    for (const secret of secrets()) expect(text).not.toContain(secret);
  });

  it('makes a return label in ZPL', async () => {
    const booking = request({
      type_of_shipment: 'return',
      sender: shipTo,
      recipient: shipFrom,
      sender_field: 'from_address',
      recipient_field: 'to_address',
      carrier_metadata: { label_format: 'zpl' },
    });
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(['ok', 'error']).toContain(result.status);
    if (result.status !== 'ok') return;
    expect(Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes).toString('latin1')).toContain('^XA');
    await adapter.cancel(result.carrier_shipment_identifier, settings, options());
  });

  it('searches Post Offices near a ZIP Code', async () => {
    const answer = await adapter.searchPudo(
      { postal_code: shipTo.postal_code, country_code: 'US', radius_meters: 10_000, limit: 10 },
      settings,
      options(),
    );
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok') return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('uspsus');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
  });
});
