import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../src/i18n/languages.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('public tracking page languages', () => {
  let t: TestApp;
  let acct: TestAccount;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  const api = (method: 'GET' | 'POST', url: string, body?: unknown, query?: Record<string, string>) => t.as(acct)(method, url, body, query);
  const page = (reference: string, query = '', acceptLanguage?: string) =>
    t.app.inject({ method: 'GET', url: `/t/${reference}${query}`, headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {} });

  async function create(body: Record<string, unknown>): Promise<string> {
    const res = await api('POST', '/v5/shipment/', body);
    expect(res.statusCode, res.body).toBe(200);
    const details = await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: body.shipment_id as string });
    return details.json().data.tracking_page_reference;
  }

  /** A shipment in transit with the sandbox carrier, with the given extra fields and recipient country. */
  async function shipment(extra: Record<string, unknown> = {}, countryCode?: string): Promise<string> {
    const reference = await create({
      shipment_id: `tpl-${++n}`,
      tracking_number: `WB20003${String(n).padStart(2, '0')}`,
      carrier_reference: 'sb',
      ...(countryCode ? { recipient_address: { line1: 'Main 1', city: 'City', postal_code: '1000', country_code: countryCode } } : {}),
      ...extra,
    });
    await t.context.worker.runOnce();
    return reference;
  }

  /** A shipment without a carrier, expected on 1–2 April 2026, with one event in Berlin. */
  async function dated(): Promise<string> {
    const shipmentId = `tpl-${++n}`;
    const reference = await create({ shipment_id: shipmentId, expected_delivery: { from: '2026-04-01', to: '2026-04-02' } });
    const res = await api('POST', '/v5/events/create/', {
      shipment_id: shipmentId,
      events: [{ event: 'Arrived at the hub', event_key: 'arrived_at_facility', time: '2026-03-29T10:15:00', timezone: 'Europe/Berlin' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    return reference;
  }

  it('speaks German for ?lang=de: words, <html lang>, Content-Language and dates', async () => {
    const reference = await shipment();
    const res = await page(reference, '?lang=de');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-language']).toBe('de');
    expect(String(res.headers.vary)).toMatch(/accept-language/i);
    const body = res.body;
    expect(body).toContain('<html lang="de">');
    expect(body).toContain('<title>Sendungsverfolgung – Unterwegs</title>');
    expect(body).toContain('<a class="skip" href="#main">Zum Inhalt springen</a>');
    expect(body).toContain('<h1>Ihr Paket</h1>');
    expect(body).toContain('<dt>Sendungsnummer</dt>');
    expect(body).toContain('<h2 id="timeline-heading">Sendungsverlauf</h2>');
    expect(body).toMatch(
      /<li class="current" data-step="in_transit" aria-current="step">Unterwegs<span class="visually-hidden"> \(aktueller Schritt\)/,
    );
    for (const english of ['Track your parcel', 'Tracking history', 'Expected delivery', 'Skip to content', 'In transit']) {
      expect(body, english).not.toContain(english);
    }
  });

  it('writes event times and the expected delivery in the language’s locale', async () => {
    const reference = await dated();
    const german = (await page(reference, '?lang=de')).body;
    expect(german).toContain('<dt>Voraussichtliche Zustellung</dt>');
    expect(german).toContain(
      '<time datetime="2026-04-01">Mi., 1. April 2026</time> – <time datetime="2026-04-02">Do., 2. April 2026</time>',
    );
    expect((await page(reference, '', 'fr-FR')).body).toContain('<time datetime="2026-04-01">mer. 1 avril 2026</time>');
    expect((await page(reference, '?lang=es')).body).toContain('<time datetime="2026-04-01">mié, 1 de abril de 2026</time>');
    const expected: Record<string, RegExp> = {
      de: /29\. März 2026[^<]*10:15 \(UTC\+02:00\)/,
      fr: /29 mars 2026[^<]*10:15 \(UTC\+02:00\)/,
      nl: /29 maart 2026[^<]*10:15 \(UTC\+02:00\)/,
      es: /29 de marzo de 2026[^<]*10:15 \(UTC\+02:00\)/,
      it: /29 marzo 2026[^<]*10:15 \(UTC\+02:00\)/,
      en: /29 March 2026[^<]*10:15 \(UTC\+02:00\)/,
    };
    for (const [language, pattern] of Object.entries(expected)) {
      const body = (await page(reference, `?lang=${language}`)).body;
      expect(body, language).toMatch(new RegExp(`<time datetime="2026-03-29T08:15:00.000Z">[^<]*${pattern.source}</time>`));
    }
  });

  it('renders every language with its own words', async () => {
    const reference = await shipment();
    const titles = new Set<string>();
    for (const language of LANGUAGES) {
      const res = await page(reference, `?lang=${language}`);
      expect(res.statusCode, language).toBe(200);
      expect(res.body, language).toContain(`<html lang="${language}">`);
      titles.add(/<h2 id="timeline-heading">([^<]+)<\/h2>/.exec(res.body)![1]);
      if (language !== 'en') expect(res.body, language).not.toContain('Tracking history');
    }
    expect(titles.size).toBe(LANGUAGES.length);
  });

  it('follows the browser’s Accept-Language, best supported match first', async () => {
    const reference = await shipment();
    const french = await page(reference, '', 'fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7');
    expect(french.body).toContain('<html lang="fr">');
    expect(french.body).toContain('Suivre votre colis');
    expect((await page(reference, '', 'ja, nl;q=0.4, en;q=0.3')).body).toContain('<html lang="nl">');
    expect((await page(reference, '', 'pt-BR, es;q=0.8')).body).toContain('<html lang="es">');
    // ?lang= comes before the browser.
    expect((await page(reference, '?lang=it', 'de-DE,de;q=0.9')).body).toContain('<html lang="it">');
  });

  it('uses the shipment’s own language (additional_info.language) before the browser’s, after ?lang=', async () => {
    const reference = await shipment({ additional_info: { language: 'nl-BE' } }, 'DE');
    const dutch = await page(reference, '', 'de-DE,de;q=0.9');
    expect(dutch.body).toContain('<html lang="nl">');
    expect(dutch.body).toContain('Volg uw pakket');
    expect((await page(reference)).body).toContain('<html lang="nl">');
    expect((await page(reference, '?lang=es')).body).toContain('<html lang="es">');
    // An unsupported language on the shipment is skipped for the next source.
    const unsupported = await shipment({ additional_info: { language: 'pt' } });
    expect((await page(unsupported, '', 'it')).body).toContain('<html lang="it">');
  });

  it('guesses from the recipient’s country only when the browser names none of our languages', async () => {
    const reference = await shipment({}, 'IT');
    expect((await page(reference, '', 'ja, zh;q=0.5')).body).toContain('<html lang="it">');
    expect((await page(reference, '', 'en-US,en;q=0.9')).body).toContain('<html lang="en">');
    // A request without Accept-Language (a link preview, a script) is not a reader to guess for.
    expect((await page(reference)).body).toContain('<html lang="en">');
    // Belgium has two of our languages: no guess.
    expect((await page(await shipment({}, 'BE'), '', 'ja')).body).toContain('<html lang="en">');
  });

  it('falls back for an unknown ?lang=: English with 200, or the next source when there is one', async () => {
    const reference = await shipment();
    for (const query of ['?lang=xx', '?lang=', '?lang=%3Cscript%3E', '?lang=pt-BR', '?lang=xx&lang=yy']) {
      const res = await page(reference, query);
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toContain('<html lang="en">');
      expect(res.body, query).toContain('Track your parcel');
      expect(res.body, query).not.toContain('<script');
    }
    expect((await page(reference, '?lang=xx', 'de')).body).toContain('<html lang="de">');
    expect((await page(reference, '?lang=xx&lang=fr')).body).toContain('<html lang="fr">');
  });

  it('answers an unknown reference in the reader’s language', async () => {
    const spanish = await page('unknownreference123', '?lang=es');
    expect(spanish.statusCode).toBe(404);
    expect(spanish.headers['content-language']).toBe('es');
    expect(spanish.body).toContain('<html lang="es">');
    expect(spanish.body).toContain('Página de seguimiento no encontrada');
    const italian = await page('unknownreference123', '', 'it-CH, de;q=0.5');
    expect(italian.body).toContain('<html lang="it">');
    expect(italian.body).toContain('Pagina di tracciamento non trovata');
    const english = await page('x', '?lang=xx');
    expect(english.statusCode).toBe(404);
    expect(english.body).toContain('Tracking page not found');
  });
});
