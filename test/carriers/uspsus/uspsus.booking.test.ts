import { afterEach, describe, expect, it } from 'vitest';
import { UspsCarrier } from '../../../src/carriers/uspsus/uspsus.carrier.js';
import type { CarrierServer } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { bookRequest, CONSUMER, MERCHANT } from './usps-book-requests.js';
import { BOOKING_SETTINGS, CANCEL_PATH, LABEL_PATH, PAYMENT_PATH, UspsLabelRoutes } from './usps-labels-server.js';
import { manualClock, uspsServer } from './usps-server.js';

/** The adapter's booking calls against a local USPS: payment authorization, labels, refusals, cancellation. */
describe('uspsus booking against a local USPS', () => {
  let server: CarrierServer;
  let usps: UspsLabelRoutes;
  afterEach(async () => server?.close());

  async function setUp(now?: () => number): Promise<UspsCarrier> {
    server = await uspsServer();
    usps = UspsLabelRoutes.install(server);
    return new UspsCarrier(localToolkit('uspsus', server.url, {}, now));
  }
  const options = () => ({ now: new Date() });

  it('asks for a payment authorization once per payment account, and again when its token expires', async () => {
    const clock = manualClock(Date.now());
    const adapter = await setUp(clock.now);
    expect((await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).status).toBe('ok');
    expect((await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).status).toBe('ok');
    expect(server.to(PAYMENT_PATH)).toHaveLength(1);
    // Another payment account of the same app gets its own token.
    const permit = { ...BOOKING_SETTINGS, account_type: 'PERMIT', account_number: '4471', permit_zip: '43001' };
    await adapter.book(bookRequest(), permit, options());
    expect(server.to(PAYMENT_PATH)).toHaveLength(2);
    expect(JSON.parse(server.to(PAYMENT_PATH)[1].body).roles[0]).toMatchObject({
      accountType: 'PERMIT',
      accountNumber: '4471',
      permitZIP: '43001',
    });
    // The token's own exp (8 hours) decides: past it, a new one.
    clock.advance(8 * 3600_000);
    expect((await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).status).toBe('ok');
    expect(server.to(PAYMENT_PATH)).toHaveLength(3);
  });

  it('a payment token USPS no longer takes (401) is replaced and the label asked for once more, as nothing was made', async () => {
    const adapter = await setUp();
    expect((await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).status).toBe('ok');
    usps.paymentTokens.splice(0);
    const before = usps.labelCalls().length;
    const result = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    expect(result.status).toBe('ok');
    expect(usps.labelCalls().length - before).toBe(2);
    expect(usps.labels).toHaveLength(2);
  });

  it('a refusal without a parameter keeps USPS’s words and names no field', async () => {
    const adapter = await setUp();
    server.once(LABEL_PATH, {
      status: 400,
      body: {
        apiVersion: '3.0',
        error: {
          code: '400',
          message: 'Bad Request',
          errors: [{ status: '400', code: '020001', title: 'Bad Request', detail: 'Mail class not available for this ZIP.' }],
        },
      },
    });
    const result = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    expect(result).toMatchObject({ status: 'error', retryable: false, field_errors: [] });
    expect(result.status === 'error' && result.message).toContain('020001 Bad Request: Mail class not available for this ZIP.');
  });

  it('a 502 after sending may have made the label: outcome_unknown; a 503 did not', async () => {
    const adapter = await setUp();
    await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    server.once(LABEL_PATH, { status: 502, body: 'bad gateway' });
    expect(await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).toMatchObject({ status: 'error', outcome_unknown: true });
    server.once(LABEL_PATH, { status: 503, body: { error: { code: '503', message: 'Service Unavailable' } } });
    const unavailable = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    expect(unavailable).toMatchObject({ status: 'error', retryable: true });
    expect(unavailable.status === 'error' && unavailable.outcome_unknown).toBeFalsy();
  });

  it('a label whose image is not the format asked for is cancelled at USPS and refused', async () => {
    const adapter = await setUp();
    await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    const trackingNumber = '9205590175547700000993';
    usps.labels.push({ trackingNumber, isReturn: false, imageType: 'PDF', references: [], cancelled: false, body: {} });
    server.once(LABEL_PATH, {
      headers: { 'content-type': 'application/vnd.usps.labels+json' },
      body: JSON.stringify({ trackingNumber, postage: 7.25, labelImage: Buffer.from('GIF89a not a pdf').toString('base64') }),
    });
    const result = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('the label was cancelled at USPS');
    expect(server.to(CANCEL_PATH).at(-1)!.path).toBe(`/labels/v3/label/${trackingNumber}`);
  });

  it('cancels: CANCELED and DISPUTED (a refund asked for) both end the booking; a malformed number is not sent', async () => {
    const adapter = await setUp();
    const booked = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    if (booked.status !== 'ok') throw new Error(booked.message);
    expect(await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    server.once(CANCEL_PATH, { body: { trackingNumber: booked.tracking_number, status: 'DISPUTED', disputeId: '104660' } });
    expect(await adapter.cancel(booked.carrier_shipment_identifier, BOOKING_SETTINGS)).toEqual({ status: 'ok' });
    const calls = server.to(CANCEL_PATH).length;
    expect(await adapter.cancel('not a number!', BOOKING_SETTINGS)).toMatchObject({ status: 'error', retryable: false });
    expect(server.to(CANCEL_PATH).length).toBe(calls);
  });

  it('an app without the Labels API (403) is told so, and the label was not made', async () => {
    const adapter = await setUp();
    await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    server.once(LABEL_PATH, { status: 403, body: { error: { code: '403', message: 'Forbidden' } } });
    const result = await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    expect(result).toMatchObject({ status: 'error', retryable: false });
    expect(result.status === 'error' && result.message).toContain('Labels and Payments APIs');
    expect(result.status === 'error' && result.outcome_unknown).toBeFalsy();
  });

  it('a quota answer on a label pauses the credential for tracking too', async () => {
    const adapter = await setUp();
    await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    server.once(LABEL_PATH, {
      status: 429,
      headers: { 'retry-after': '120' },
      body: { error: { code: '429', message: 'Exceeded quota limit' } },
    });
    expect(await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).toMatchObject({
      status: 'error',
      retryable: true,
      throttled: 'quota',
    });
    expect(adapter.callsLeftToday(BOOKING_SETTINGS)).toBe(0);
    const calls = usps.labelCalls().length;
    expect(await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).toMatchObject({ status: 'error', held: true });
    expect(usps.labelCalls().length).toBe(calls);
  });

  it('a quota answer without Retry-After pauses until the next hour, as USPS counts its quota per hour', async () => {
    const clock = manualClock(Date.parse('2026-11-23T10:45:00Z'));
    const adapter = await setUp(clock.now);
    await adapter.book(bookRequest(), BOOKING_SETTINGS, options());
    server.once(LABEL_PATH, { status: 429, body: { error: { code: '429', message: 'Exceeded quota limit' } } });
    expect(await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).toMatchObject({ throttled: 'quota', retry_after_seconds: 900 });
    clock.advance(900_000);
    expect((await adapter.book(bookRequest(), BOOKING_SETTINGS, options())).status).toBe('ok');
  });
});

describe('uspsus checkBooking', () => {
  const adapter = new UspsCarrier(localToolkit('uspsus', 'http://127.0.0.1:9'));
  const paths = (overrides: Parameters<typeof bookRequest>[0], settings: Record<string, unknown> = BOOKING_SETTINGS) =>
    adapter.checkBooking(bookRequest(overrides), settings).map((e) => e.path.join('.'));

  it('accepts the fixture request, and wants the payment account', () => {
    expect(paths({})).toEqual([]);
    expect(paths({}, { client_id: 'a', client_secret: 'b' })).toEqual(['carrier_reference']);
    expect(paths({}, { ...BOOKING_SETTINGS, account_type: 'PERMIT' })).toEqual(['carrier_reference']);
  });

  it('domestic addresses in USPS’s limits', () => {
    expect(paths({ recipient: { ...CONSUMER, country_code: 'CA' } })).toEqual(['recipient_address.country_code']);
    expect(paths({ recipient: { ...CONSUMER, postal_code: '0700' } })).toEqual(['recipient_address.postal_code']);
    expect(paths({ recipient: { ...CONSUMER, state_or_province: 'New Jersey' } })).toEqual(['recipient_address.state_or_province']);
    expect(paths({ recipient: { ...CONSUMER, state_or_province: 'AE' } })).toEqual(['recipient_address.state_or_province']);
    expect(paths({ recipient: { ...CONSUMER, city: 'A city whose name is far too long' } })).toEqual(['recipient_address.city']);
    expect(paths({ recipient: { ...CONSUMER, line3: 'Building 7' } })).toEqual(['recipient_address.line3']);
    expect(paths({ sender: { ...MERCHANT, phone: '12' } })).toEqual(['sender_address.phone']);
    expect(
      paths({ sender: { line1: '1 Main St', city: 'Maple Ridge', state_or_province: 'OH', postal_code: '43001', country_code: 'US' } }),
    ).toEqual(['sender_address.first_name']);
    // Puerto Rico: the territory's code is its state.
    expect(paths({ recipient: { ...CONSUMER, state_or_province: undefined, country_code: 'PR', postal_code: '00901' } })).toEqual([]);
  });

  it('mail classes, returns, weights, sizes and options', () => {
    expect(paths({ shipping_service: 'FIRST_CLASS' })).toEqual(['shipping_service']);
    expect(paths({ shipping_service: 'MEDIA_MAIL', type_of_shipment: 'return' })).toEqual(['shipping_service']);
    const heavy = { weight_grams: 32_000, dimensions_cm: { length: 30, width: 20, height: 10 } };
    expect(paths({ weight_grams: 32_000, parcels: [heavy] })).toEqual(['weight']);
    const long = { weight_grams: 1250, dimensions_cm: { length: 200, width: 40, height: 30 } };
    expect(paths({ dimensions_cm: long.dimensions_cm, parcels: [long] })).toEqual(['dimensions']);
    // 130 in for USPS Ground Advantage, 108 in for Priority Mail: 150 + 2 × (40 + 20) cm is 106.5 in, 160 + 2 × (40 + 20) cm 110.4 in.
    const mid = { weight_grams: 1250, dimensions_cm: { length: 150, width: 40, height: 20 } };
    expect(paths({ dimensions_cm: mid.dimensions_cm, parcels: [mid] })).toEqual([]);
    const big = { weight_grams: 1250, dimensions_cm: { length: 160, width: 40, height: 20 } };
    expect(paths({ shipping_service: 'PRIORITY_MAIL', dimensions_cm: big.dimensions_cm, parcels: [big] })).toEqual(['dimensions']);
    expect(
      paths({ carrier_metadata: { label_format: 'gif', rate_indicator: 'ZZ', processing_category: 'PARCEL', insurance: true } }),
    ).toEqual([
      'carrier_metadata.label_format',
      'carrier_metadata.rate_indicator',
      'carrier_metadata.processing_category',
      'carrier_metadata.insurance',
    ]);
    expect(paths({ type_of_shipment: 'return', carrier_metadata: { rate_indicator: '3D' } })).toEqual(['carrier_metadata.rate_indicator']);
  });

  it('Hold For Pickup: a Post Office that holds parcels, a class USPS holds, and both parties’ contacts', () => {
    const office = { pudo_location_id: '1390417', services: ['drop_off', 'pick_up'], address: {} } as never;
    expect(paths({ pudo_location: office })).toEqual([]);
    expect(paths({ pudo_location: { pudo_location_id: '1390422', services: ['drop_off'], address: {} } as never })).toEqual([
      'pudo_location_uuid',
    ]);
    expect(paths({ pudo_location: office, shipping_service: 'MEDIA_MAIL' })).toEqual(['pudo_location_uuid']);
    const { email: _email, ...noEmail } = CONSUMER;
    const { phone: _phone, ...noPhone } = MERCHANT;
    expect(paths({ pudo_location: office, recipient: noEmail, sender: { ...noPhone, first_name: '' } })).toEqual([
      'recipient_address.email',
      'sender_address.first_name',
      'sender_address.phone',
    ]);
  });
});
