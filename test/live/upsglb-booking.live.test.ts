import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';
import { UpsCarrier } from '../../src/carriers/upsglb/upsglb.carrier.js';

/**
 * UPS booking, void, label recovery and Access Point search against UPS's test environment (CIE), run by
 * `npm run test:live` only when `WAYBILL_LIVE_UPSGLB_CLIENT_ID`, `…_CLIENT_SECRET` and `…_ACCOUNT_NUMBER` are set
 * and `…_ENVIRONMENT` is `sandbox` (never against production: a booking there is billed). Optional:
 * `WAYBILL_LIVE_UPSGLB_SHIP_FROM` / `…_SHIP_TO`, JSON addresses in the interface's Address fields (default: two
 * invented US addresses in Georgia, as in UPS's examples). Asserts the contract's invariants, not UPS's data.
 */
const env = process.env;
const settings = {
  client_id: env.WAYBILL_LIVE_UPSGLB_CLIENT_ID,
  client_secret: env.WAYBILL_LIVE_UPSGLB_CLIENT_SECRET,
  account_number: env.WAYBILL_LIVE_UPSGLB_ACCOUNT_NUMBER,
  environment: env.WAYBILL_LIVE_UPSGLB_ENVIRONMENT,
};
const configured = Boolean(settings.client_id && settings.client_secret && settings.account_number) && settings.environment === 'sandbox';

const shipFrom = env.WAYBILL_LIVE_UPSGLB_SHIP_FROM
  ? JSON.parse(env.WAYBILL_LIVE_UPSGLB_SHIP_FROM)
  : {
      company: 'Waybill Test Shipper',
      first_name: 'Test',
      last_name: 'Shipper',
      line1: '12380 Morris Rd',
      city: 'Alpharetta',
      state_or_province: 'GA',
      postal_code: '30005',
      country_code: 'US',
      phone: '+1 404 555 0100',
    };
const shipTo = env.WAYBILL_LIVE_UPSGLB_SHIP_TO
  ? JSON.parse(env.WAYBILL_LIVE_UPSGLB_SHIP_TO)
  : {
      first_name: 'Test',
      last_name: 'Consignee',
      line1: '55 Glenlake Pkwy NE',
      city: 'Atlanta',
      state_or_province: 'GA',
      postal_code: '30328',
      country_code: 'US',
      phone: '+1 404 555 0199',
      email: 'consignee@example.com',
    };

function request(): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: shipFrom.country_code === 'US' && shipTo.country_code === 'US' ? '03' : '11',
    sender: shipFrom,
    recipient: shipTo,
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
  };
}

describe.skipIf(!configured)('upsglb live booking (CIE; WAYBILL_LIVE_UPSGLB_… set)', () => {
  const adapter = new UpsCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });

  it('books, finds the booking by its reference, and voids it; no secret in any result', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.tracking_number).toMatch(/^1Z[0-9A-Z]{16}$/);
    expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
    const pdf = Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const found = await adapter.findBooking(booking, settings, options());
    expect(['found', 'not_found', 'error']).toContain(found.status);
    const voided = await adapter.cancel(result.carrier_shipment_identifier, settings, options());
    expect(voided.status === 'ok' || (voided.status === 'error' && typeof voided.message === 'string')).toBe(true);
    const text = JSON.stringify([result, found, voided]);
    for (const secret of [settings.client_secret, settings.client_id]) expect(text).not.toContain(secret);
  });

  it('searches Access Points near a postal code', async () => {
    const answer = await adapter.searchPudo(
      { postal_code: shipTo.postal_code, country_code: shipTo.country_code, radius_meters: 20_000, limit: 10 },
      settings,
      options(),
    );
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok') return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('upsglb');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
  });
});
