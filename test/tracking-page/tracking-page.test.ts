import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { fullShipment } from '../shipments/fixtures.js';

describe('public tracking page', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const page = (reference: string, query = '') => t.app.inject({ method: 'GET', url: `/t/${reference}${query}` });

  async function create(body: Record<string, unknown>): Promise<{ shipmentId: string; reference: string }> {
    const res = await api('POST', '/v5/shipment/', body);
    expect(res.statusCode, res.body).toBe(200);
    const details = (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: body.shipment_id as string })).json().data;
    return { shipmentId: body.shipment_id as string, reference: details.tracking_page_reference };
  }

  async function tracked(trackingNumber: string, extra: Record<string, unknown> = {}) {
    const created = await create({
      ...fullShipment(`tp-${++n}`),
      tracking_number: trackingNumber,
      carrier_reference: 'sb',
      expected_delivery: null,
      ...extra,
    });
    await t.context.worker.runOnce();
    return created;
  }

  it('shows phase, progress, carrier and the timeline newest first, without a token', async () => {
    const { reference } = await tracked('WB2000101');
    const res = await page(reference);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    const body = res.body;
    expect(body).toMatch(/^<!doctype html>/);
    expect(body).toContain('<html lang="en">');
    expect(body).toContain('data-phase="in_transit"');
    expect(body).toMatch(/<li class="done" data-step="info_received">/);
    expect(body).toMatch(/<li class="current" data-step="in_transit" aria-current="step">/);
    expect(body).toMatch(/<li class="upcoming" data-step="delivered">/);
    expect(body).toContain('WB2000101');
    expect(body).toContain('Waybill Sandbox');
    // Landmarks and lists.
    for (const tag of ['<header>', '<main id="main"', '<footer>', '<ol class="progress"', '<ol class="timeline">'])
      expect(body).toContain(tag);
    // The timeline follows the API's order (newest first).
    const details = (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: `tp-${n}` })).json().data;
    const shown = [...body.matchAll(/<p class="what">([^<]*)<\/p>/g)].map((m) => m[1]);
    expect(shown.length).toBe(details.all_events.length);
    expect(shown[0]).toBe(escapeText(details.all_events[0].event));
    expect(shown.at(-1)).toBe(escapeText(details.all_events.at(-1).event));
  });

  it('shows nothing a recipient should not see', async () => {
    const { reference, shipmentId } = await tracked('WB3000102');
    const body = (await page(reference)).body;
    for (const secret of [
      'Unter den Linden',
      '10117',
      'Lovelace',
      'ada@example.com',
      '+49',
      '1234567',
      '99.5',
      '4.95',
      'EUR',
      'Acme',
      '1 Main St',
      'Leave at the door',
      'Books',
      'vip',
      `order-${shipmentId}`,
      'ORD-REF',
      'REF-1',
      'ADD-1',
      shipmentId,
      acct.accountUuid,
    ]) {
      expect(body, secret).not.toContain(secret);
    }
    const other = await tracked('WB2000103');
    expect(body).not.toContain('WB2000103');
    expect(body).not.toContain(other.reference);
  });

  it('sets the security headers: CSP without scripts, nosniff, no referrer, no framing', async () => {
    const { reference } = await tracked('WB1000104');
    for (const res of [await page(reference), await page('unknownreference123')]) {
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
      expect(csp).not.toContain('script-src');
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.body).not.toContain('<script');
    }
  });

  it('answers an unknown or malformed reference with a 404 HTML page', async () => {
    for (const reference of ['unknownreference123', 'x', '%3Cscript%3E', 'a'.repeat(100)]) {
      const res = await page(reference);
      expect(res.statusCode, reference).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('Tracking page not found');
      expect(res.body).not.toContain('<script');
    }
  });

  it('falls back to English for an unknown language', async () => {
    const { reference } = await tracked('WB1000105');
    for (const query of ['?lang=xx', '?lang=', '?lang=%3Cb%3E', '?lang=en-GB', '?lang=a&lang=b']) {
      const res = await page(reference, query);
      expect(res.statusCode, query).toBe(200);
      expect(res.body).toContain('<html lang="en">');
      expect(res.body).toContain('Track your parcel');
    }
  });

  it('shows exceptions and returns distinctly', async () => {
    const exception = (await page((await tracked('WB6000106')).reference)).body;
    expect(exception).toContain('data-phase="exception"');
    expect(exception).toContain('class="status alert"');
    expect(exception).toContain('The carrier reported a problem');
    const returning = (await page((await tracked('WB5000107')).reference)).body;
    expect(returning).toContain('data-phase="return_to_sender"');
    expect(returning).toContain('on its way back to the sender');
    const delivered = (await page((await tracked('WB4000108')).reference)).body;
    expect(delivered).toContain('data-phase="delivered"');
    expect(delivered).not.toContain('aria-current');
    expect(delivered.match(/<li class="done" data-step=/g)?.length).toBe(4);
  });

  it('shows event times in the event’s local time, keeps dates as dates, escapes carrier text', async () => {
    const { shipmentId, reference } = await create({
      shipment_id: `tp-${++n}`,
      expected_delivery: { from: '2026-04-01', to: '2026-04-02' },
    });
    const res = await api('POST', '/v5/events/create/', {
      shipment_id: shipmentId,
      events: [
        { event: 'Label <b>printed</b> & "ready"', event_key: 'label_created', time: '2026-03-28' },
        {
          event: 'Arrived at the hub',
          event_key: 'arrived_at_facility',
          time: '2026-03-29T10:15:00',
          timezone: 'Europe/Berlin',
          location: { place: 'Hauptstraße 5, Berlin', city: 'Berlin', country_code: 'de', postal_code: '10115' },
        },
        { event: 'Sorted', event_key: 'in_transit', time: '2026-03-29T23:30:00Z', timezone: 'Asia/Tokyo' },
        { event: 'Scanned', event_key: 'in_transit', time: '2026-03-29T11:00:00-05:00' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = (await page(reference)).body;
    expect(body).toContain('Label &lt;b&gt;printed&lt;/b&gt; &amp; &quot;ready&quot;');
    expect(body).not.toContain('<b>printed');
    // A date alone stays a date.
    expect(body).toContain('<time datetime="2026-03-28">Sat, 28 March 2026</time>');
    // A local time with its zone: 10:15 in Berlin (summer time from 29 March 2026).
    expect(body).toMatch(/<time datetime="2026-03-29T08:15:00.000Z">[^<]*29 March 2026[^<]*10:15 \(UTC\+02:00\)<\/time>/);
    // An instant with a stored zone shows that zone's clock: 23:30 UTC is 08:30 on the 30th in Tokyo.
    expect(body).toMatch(/<time datetime="2026-03-29T23:30:00.000Z">[^<]*30 March 2026[^<]*08:30 \(UTC\+09:00\)<\/time>/);
    // An offset without a zone: the wall time as written.
    expect(body).toMatch(/<time datetime="2026-03-29T16:00:00.000Z">[^<]*29 March 2026[^<]*11:00 \(UTC-05:00\)<\/time>/);
    // City and country only, never the street.
    expect(body).toContain('<p class="where">Berlin, DE</p>');
    expect(body).not.toContain('Hauptstraße');
    expect(body).not.toContain('10115');
    expect(body).toMatch(
      /data-expected-delivery><time datetime="2026-04-01">Wed, 1 April 2026<\/time> – <time datetime="2026-04-02">Thu, 2 April 2026<\/time>/,
    );
  });

  it('shows a shipment without events as waiting for the carrier', async () => {
    const { reference } = await create({ shipment_id: `tp-${++n}` });
    const body = (await page(reference)).body;
    expect(body).toContain('data-phase="none"');
    expect(body).toContain('Waiting for the first update');
    expect(body).toContain('No tracking events yet');
    expect(body.match(/<li class="upcoming"/g)?.length).toBe(4);
  });
});

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
