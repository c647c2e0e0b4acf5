import { describe, expect, it } from 'vitest';
import type { BookRequest } from '../../src/carriers/booking.js';
import { FedexCarrier } from '../../src/carriers/fdxglb/fdxglb.carrier.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';

/**
 * FedEx booking, cancel and location search against FedEx's sandbox (apis-sandbox.fedex.com), run by
 * `npm run test:live` only when `WAYBILL_LIVE_FDXGLB_CLIENT_ID`, `…_CLIENT_SECRET` and `…_ACCOUNT_NUMBER` are set
 * and `…_ENVIRONMENT` is `sandbox` (never against production: a shipment there is billed). Optional:
 * `WAYBILL_LIVE_FDXGLB_SHIP_CLIENT_ID` / `…_SHIP_CLIENT_SECRET` (the Ship API's own project, when the keys above
 * are the Track project's), `…_SHIP_FROM` / `…_SHIP_TO`, JSON addresses in the interface's Address fields (default:
 * two invented US addresses in Tennessee and Texas). Asserts the contract's invariants, not FedEx's data.
 */
const env = process.env;
const settings = {
  client_id: env.WAYBILL_LIVE_FDXGLB_CLIENT_ID,
  client_secret: env.WAYBILL_LIVE_FDXGLB_CLIENT_SECRET,
  account_number: env.WAYBILL_LIVE_FDXGLB_ACCOUNT_NUMBER,
  environment: env.WAYBILL_LIVE_FDXGLB_ENVIRONMENT,
  ...(env.WAYBILL_LIVE_FDXGLB_SHIP_CLIENT_ID
    ? { ship_client_id: env.WAYBILL_LIVE_FDXGLB_SHIP_CLIENT_ID, ship_client_secret: env.WAYBILL_LIVE_FDXGLB_SHIP_CLIENT_SECRET }
    : {}),
};
const configured = Boolean(settings.client_id && settings.client_secret && settings.account_number) && settings.environment === 'sandbox';

const shipFrom = env.WAYBILL_LIVE_FDXGLB_SHIP_FROM
  ? JSON.parse(env.WAYBILL_LIVE_FDXGLB_SHIP_FROM)
  : {
      company: 'Waybill Test Shipper',
      first_name: 'Test',
      last_name: 'Shipper',
      line1: '10 Test Dock Rd',
      city: 'Collierville',
      state_or_province: 'TN',
      postal_code: '38017',
      country_code: 'US',
      phone: '+1 901 555 0100',
    };
const shipTo = env.WAYBILL_LIVE_FDXGLB_SHIP_TO
  ? JSON.parse(env.WAYBILL_LIVE_FDXGLB_SHIP_TO)
  : {
      first_name: 'Test',
      last_name: 'Recipient',
      line1: '20 Test Lane',
      city: 'Irving',
      state_or_province: 'TX',
      postal_code: '75063',
      country_code: 'US',
      phone: '+1 214 555 0199',
      email: 'recipient@example.com',
    };

function request(): BookRequest {
  const reference = `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}`.slice(0, 20);
  return {
    shipment_uuid: '00000000-0000-4000-8000-000000000000',
    shipment_id: `LIVE-${reference}`,
    type_of_shipment: 'outbound',
    shipping_service: shipFrom.country_code === 'US' && shipTo.country_code === 'US' ? 'FEDEX_GROUND' : 'FEDEX_INTERNATIONAL_PRIORITY',
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

describe.skipIf(!configured)('fdxglb live booking (sandbox; WAYBILL_LIVE_FDXGLB_… set)', () => {
  const adapter = new FedexCarrier(carrierToolkit({ env }));
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(90_000) });
  const secrets = [settings.client_secret, settings.client_id, env.WAYBILL_LIVE_FDXGLB_SHIP_CLIENT_SECRET].filter((s): s is string =>
    Boolean(s),
  );

  it('books a PDF label and cancels it; no secret in any result', async () => {
    const booking = request();
    expect(adapter.checkBooking(booking, settings)).toEqual([]);
    const result = await adapter.book(booking, settings, options());
    expect(result.status, JSON.stringify(result).slice(0, 500)).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.tracking_number).toMatch(/^\d{12,34}$/);
    expect(result.labels[0]).toMatchObject({ kind: 'file', format: 'pdf', document_type: 'label' });
    const pdf = Buffer.from((result.labels[0] as { bytes: Uint8Array }).bytes);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const cancelled = await adapter.cancel(result.carrier_shipment_identifier, settings, options());
    expect(cancelled.status === 'ok' || (cancelled.status === 'error' && typeof cancelled.message === 'string')).toBe(true);
    const text = JSON.stringify([result, cancelled]);
    for (const secret of secrets) expect(text).not.toContain(secret);
  });

  it('searches FedEx locations near a postal code', async () => {
    const answer = await adapter.searchPudo(
      { postal_code: shipTo.postal_code, country_code: shipTo.country_code, radius_meters: 20_000, limit: 10, services: ['pick_up'] },
      settings,
      options(),
    );
    expect(['ok', 'error']).toContain(answer.status);
    if (answer.status !== 'ok') return;
    for (const location of answer.locations) {
      expect(location.carrier_id).toBe('fdxglb');
      expect(Number.isFinite(location.lat) && Number.isFinite(location.lng)).toBe(true);
    }
  });
});
