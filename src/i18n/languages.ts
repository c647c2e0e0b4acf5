/** The languages consumers are written to in, and the tracking page speaks: ISO 639-1 codes. */
export const LANGUAGES = ['en', 'de', 'fr', 'nl', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];

/** The language everything falls back to. */
export const DEFAULT_LANGUAGE: Language = 'en';

/**
 * The locale dates, times and numbers are written in, per language. English is en-GB: day before month
 * and a 24-hour clock, read the same way by most recipients outside the US.
 */
export const LOCALES: Record<Language, string> = { en: 'en-GB', de: 'de-DE', fr: 'fr-FR', nl: 'nl-NL', es: 'es-ES', it: 'it-IT' };

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** ISO 639-2 codes (bibliographic and terminology) some shop systems send instead of ISO 639-1. */
const THREE_LETTER: Record<string, Language> = {
  eng: 'en',
  deu: 'de',
  ger: 'de',
  fra: 'fr',
  fre: 'fr',
  nld: 'nl',
  dut: 'nl',
  spa: 'es',
  ita: 'it',
};

/** A BCP 47-like tag: a 2–3 letter language, then subtags split by `-` or `_` (`de`, `de-AT`, `de_CH`, `es-419`). */
const TAG = /^([a-z]{2,3})(?:[-_][a-z0-9]{1,8})*$/i;

/**
 * The supported language a tag names: `de`, `DE`, `de-AT`, `de_CH` and `deu` are all German. Null for
 * anything else (an unsupported language, an empty or malformed value): never an error.
 */
export function normaliseLanguage(text: string | null | undefined): Language | null {
  if (typeof text !== 'string') return null;
  const match = TAG.exec(text.trim());
  if (!match) return null;
  const base = match[1].toLowerCase();
  if (isLanguage(base)) return base;
  return THREE_LETTER[base] ?? null;
}

function countries(language: Language, codes: string): Array<[string, Language]> {
  return codes.split(' ').map((code) => [code, language]);
}

/**
 * The language most recipients in a country read, among ours (ISO 3166-1 alpha-2). A country is listed
 * where one of our languages is official and the language of most people; where two of ours split the
 * country into large regions of comparable size, it is not listed, so a better source decides:
 * - BE: Dutch (about 60%) and French (about 40%, and most of Brussels) — not listed.
 * - CH: German (about 62%, French about 23%) — German. LU: French, the language of its administration.
 * - CA: English (about 75%). CM: French (about 80%). PR: Spanish.
 * Countries not listed give null: the account's default language applies, then English.
 */
const COUNTRY_LANGUAGE: ReadonlyMap<string, Language> = new Map([
  ...countries('de', 'DE AT CH LI'),
  ...countries('fr', 'FR MC LU GP MQ GF RE YT PM BL MF NC PF WF SN CI ML BF NE TG BJ GA CG CD CM GN MG CF TD DJ KM HT BI'),
  ...countries('nl', 'NL SR AW CW SX BQ'),
  ...countries('es', 'ES MX AR CO CL PE VE EC GT CU BO DO HN PY SV NI CR PA UY PR GQ'),
  ...countries('it', 'IT SM VA'),
  ...countries(
    'en',
    'GB US IE CA AU NZ GG JE IM GI MT ZA SG IN NG GH KE UG ZM ZW BW NA JM TT BS BB BZ GY AG DM GD KN LC VC BM KY VG VI AI MS TC FK SH GU AS MP PH FJ PG',
  ),
]);

/** The language of a recipient's country (see COUNTRY_LANGUAGE); null when no language is clear. */
export function languageOfCountry(countryCode: string | null | undefined): Language | null {
  if (typeof countryCode !== 'string') return null;
  return COUNTRY_LANGUAGE.get(countryCode.trim().toUpperCase()) ?? null;
}

/** At most this many ranges of an Accept-Language header are read (a browser sends a handful). */
const MAX_RANGES = 32;

/**
 * The supported language a browser prefers most (RFC 9110 Accept-Language): ranges by quality, highest
 * first, and in the order written among equal qualities; a range with `q=0` or an unreadable quality is
 * skipped. Null when the header is absent, malformed, or names none of ours (`*` names none in particular).
 */
export function languageOfAcceptLanguage(header: string | string[] | null | undefined): Language | null {
  // Only the strings of a list: joining an element that is not one may call code of the value's own, or throw.
  const text = Array.isArray(header) ? header.filter((item) => typeof item === 'string').join(',') : header;
  if (typeof text !== 'string' || text === '') return null;
  const ranges: Array<{ language: Language; q: number; index: number }> = [];
  for (const [index, part] of text.split(',').slice(0, MAX_RANGES).entries()) {
    const [range, ...params] = part.split(';').map((piece) => piece.trim());
    const language = normaliseLanguage(range);
    if (!language) continue;
    let q = 1;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() === 'q') q = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(value ?? '') ? Number(value) : 0;
    }
    if (q > 0) ranges.push({ language, q, index });
  }
  ranges.sort((a, b) => b.q - a.q || a.index - b.index);
  return ranges[0]?.language ?? null;
}

/** Where a consumer's language can come from, most specific first. Every source is optional. */
export interface LanguageSources {
  /** Asked for explicitly, e.g. `?lang=` on the tracking page. */
  requested?: string | null;
  /** The shipment's own: its `additional_info.language`. */
  shipmentLanguage?: string | null;
  /** The order's language. */
  orderLanguage?: string | null;
  /** The browser's Accept-Language header (the tracking page only). */
  acceptLanguage?: string | string[] | null;
  /** The recipient's ISO 3166-1 alpha-2 country. */
  recipientCountry?: string | null;
  /** The merchant's default language for consumers. */
  accountDefault?: string | null;
}

/**
 * The language to write to a consumer in: the first source that names a supported language, in the order
 * requested, shipment, order, browser, recipient country, account default; English when none does.
 * An unknown or unsupported value never fails: it is skipped for the next source.
 */
export function resolveLanguage(sources: LanguageSources): Language {
  return (
    normaliseLanguage(sources.requested) ??
    normaliseLanguage(sources.shipmentLanguage) ??
    normaliseLanguage(sources.orderLanguage) ??
    languageOfAcceptLanguage(sources.acceptLanguage) ??
    languageOfCountry(sources.recipientCountry) ??
    normaliseLanguage(sources.accountDefault) ??
    DEFAULT_LANGUAGE
  );
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/**
 * The language sources a stored shipment body holds: `additional_info.language`, `order.language`, and the
 * consumer's country: the recipient's (`recipient_address`, else `to_address`), or for a return shipment, which
 * the consumer sends back, the sender's (`sender_address`, else `from_address`).
 */
export function languageSourcesOfShipment(
  body: unknown,
  consumer: 'recipient' | 'sender' = 'recipient',
): Pick<LanguageSources, 'shipmentLanguage' | 'orderLanguage' | 'recipientCountry'> {
  const shipment = record(body);
  const country = (address: unknown) => text(record(address)?.country_code);
  return {
    shipmentLanguage: text(record(shipment?.additional_info)?.language),
    orderLanguage: text(record(shipment?.order)?.language),
    recipientCountry:
      consumer === 'sender'
        ? (country(shipment?.sender_address) ?? country(shipment?.from_address))
        : (country(shipment?.recipient_address) ?? country(shipment?.to_address)),
  };
}
