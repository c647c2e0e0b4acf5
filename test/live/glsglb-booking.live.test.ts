import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { GlsCarrier } from '../../src/carriers/glsglb/glsglb.carrier.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';

/**
 * GLS booking, cancelling and ParcelShop search against GLS's sandbox (`https://api-sandbox.gls-group.net`, ShipIT
 * "without data transmission"), run by `npm run test:live` only when `WAYBILL_LIVE_GLSGLB_CLIENT_ID`, `…_CLIENT_SECRET`
 * and `…_CONTACT_ID` are set and `…_ENVIRONMENT` is `sandbox` (never against production: a parcel created there is
 * billed once GLS scans it). The developer portal app needs the ShipIT Farm API product. Optional:
 * `WAYBILL_LIVE_GLSGLB_SHIP_FROM` / `…_SHIP_TO`, JSON addresses in the interface's Address fields (default: two
 * invented German addresses). Asserts the contract's invariants, not GLS's data.
 */
const env = process.env;
const settings = {
  client_id: env.WAYBILL_LIVE_GLSGLB_CLIENT_ID,
  client_secret: env.WAYBILL_LIVE_GLSGLB_CLIENT_SECRET,
  contact_id: env.WAYBILL_LIVE_GLSGLB_CONTACT_ID,
  environment: env.WAYBILL_LIVE_GLSGLB_ENVIRONMENT,
};
const configured = Boolean(settings.client_id && settings.client_secret && settings.contact_id) && settings.environment === 'sandbox';

const shipFrom = env.WAYBILL_LIVE_GLSGLB_SHIP_FROM
  ? JSON.parse(env.WAYBILL_LIVE_GLSGLB_SHIP_FROM)
  : {
      company: 'Waybill Test Shipper',
      first_name: 'Test',
      last_name: 'Shipper',
      street_name: 'Kasseler Straße',
      house_number: '10',
      city: 'Kassel',
      postal_code: '34117',
      country_code: 'DE',
      phone: '+49 561 5550100',
    };
const shipTo = env.WAYBILL_LIVE_GLSGLB_SHIP_TO
  ? JSON.parse(env.WAYBILL_LIVE_GLSGLB_SHIP_TO)
  : {
      first_name: 'Test',
      last_name: 'Consignee',
      street_name: 'Mönckebergstraße',
      house_number: '1',
      city: 'Hamburg',
      postal_code: '20095',
      country_code: 'DE',
      email: 'consignee@example.com',
    };

function request(): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: 'PARCEL',
    sender: shipFrom,
    recipient: shipTo,
    sender_field: 'sender_address',
    recipient_field: 'recipient_address',
    weight_grams: 1200,
    dimensions_cm: null,
    shipment_reference: 'WAYBILL-LIVE',
    pudo_location: null,
    carrier_metadata: {},
    date: new Date().toISOString().slice(0, 10),
    parcels: [{ weight_grams: 1200, dimensions_cm: null }],
    line_items: [],
    shipment_value: null,
    description_of_goods: null,
    booking_reference: reference,
  };
}

describe.skipIf(!configured)('glsglb live booking (sandbox; WAYBILL_LIVE_GLSGLB_… set)', () => {
  const adapter = new GlsCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });

  it('books a parcel with a PDF label and cancels it; no secret in any result', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.tracking_number).toMatch(/^\d{11,12}$/);
    expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
    const pdf = Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const cancelled = await adapter.cancel(result.carrier_shipment_identifier, settings, options());
    expect(cancelled.status === 'ok' || (cancelled.status === 'error' && typeof cancelled.message === 'string')).toBe(true);
    const text = JSON.stringify([result, cancelled]);
    for (const secret of [settings.client_secret, settings.client_id]) expect(text).not.toContain(secret);
  });

  it('searches ParcelShops near a postal code', async () => {
    const answer = await adapter.searchPudo(
      { postal_code: shipTo.postal_code, country_code: shipTo.country_code, radius_meters: 5_000, limit: 10 },
      settings,
      options(),
    );
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok') return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('glsglb');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
  });
});
