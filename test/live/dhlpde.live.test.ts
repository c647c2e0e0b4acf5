import { describe, expect, it } from 'vitest';
import { DhlParcelDeCarrier } from '../../src/carriers/dhlpde/dhlpde.carrier.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';
import { outboundRequest } from '../carriers/dhlpde/dhlpde.fixtures.js';

/**
 * DHL Parcel DE against DHL's own sandbox, only when `WAYBILL_LIVE_DHLPDE_API_KEY`, `…_API_SECRET`, `…_USERNAME`,
 * `…_PASSWORD` and `…_BILLING_NUMBER_V01PAK` are set (`…_ENVIRONMENT` is `sandbox` unless given): DHL's validate
 * mode, a booking with a real label, its void, and a pick-up point search. Invariants only: DHL's numbers and
 * labels differ on every run.
 */
const env = (name: string) => process.env[`WAYBILL_LIVE_DHLPDE_${name}`];
const configured = ['API_KEY', 'API_SECRET', 'USERNAME', 'PASSWORD', 'BILLING_NUMBER_V01PAK'].every((name) => env(name));

describe.skipIf(!configured)('dhlpde live (WAYBILL_LIVE_DHLPDE_… set)', () => {
  const adapter = new DhlParcelDeCarrier(carrierToolkit({ env: process.env }));
  const settings = {
    environment: env('ENVIRONMENT') ?? 'sandbox',
    api_key: env('API_KEY'),
    api_secret: env('API_SECRET'),
    username: env('USERNAME'),
    password: env('PASSWORD'),
    billing_numbers: { V01PAK: env('BILLING_NUMBER_V01PAK') },
  };
  const secrets = [settings.api_key, settings.api_secret, settings.password] as string[];
  const today = new Date().toISOString().slice(0, 10);
  const request = outboundRequest({ date: today, booking_reference: `WB${Date.now().toString(16).toUpperCase().padStart(18, '0')}` });
  const options = () => ({ now: new Date(), signal: AbortSignal.timeout(60_000) });

  it('validates, books with a PDF label, and voids a DHL Paket parcel', async () => {
    expect(adapter.checkBooking(request, settings)).toEqual([]);
    const checked = await adapter.validateBooking(request, settings, options());
    expect(checked.status, JSON.stringify(checked)).toBe('ok');
    const booked = await adapter.book(request, settings, options());
    expect(booked.status, JSON.stringify(booked).slice(0, 500)).toBe('ok');
    if (booked.status !== 'ok') return;
    const [label] = booked.labels;
    expect(label.kind === 'file' && Buffer.from(label.bytes).subarray(0, 5).toString()).toBe('%PDF-');
    expect(booked.tracking_number).toMatch(/^[0-9A-Z]{8,}$/);
    const voided = await adapter.cancel(booked.carrier_shipment_identifier, settings, options());
    expect(voided, JSON.stringify(voided)).toEqual({ status: 'ok' });
    for (const secret of secrets) expect(JSON.stringify(booked)).not.toContain(secret);
  });

  it('finds pick-up points near Bonn', async () => {
    const found = await adapter.searchPudo({ lat: 50.7374, lng: 7.0982, radius_meters: 2000, limit: 10 }, settings, options());
    expect(found.status, JSON.stringify(found).slice(0, 300)).toBe('ok');
    if (found.status !== 'ok') return;
    for (const location of found.locations) {
      expect(location.carrier_id).toBe('dhlpde');
      expect(['parcel_locker', 'post_office', 'parcel_shop']).toContain(location.address.mapped_location_type);
    }
  });
});
