import type { LabelAddress } from './label.types.js';

/**
 * Width of an average character as a share of the font size. Deliberately generous: text fitted with it
 * fits in Helvetica (PDF), the printer's scalable font 0 (ZPL) and the monospaced OCR-B glyphs (PNG).
 */
export const AVERAGE_CHAR_WIDTH = 0.6;

/** Shortens `text` with "..." so that it is at most `maxWidth` wide at `size` (same unit). */
export function fitText(text: string, size: number, maxWidth: number): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  const maxChars = Math.max(1, Math.floor(maxWidth / (size * AVERAGE_CHAR_WIDTH)));
  if (clean.length <= maxChars) return clean;
  return maxChars <= 3 ? clean.slice(0, maxChars) : `${clean.slice(0, maxChars - 3)}...`;
}

const REPLACEMENTS: Record<string, string> = {
  ß: 'ss',
  Æ: 'AE',
  æ: 'ae',
  Ø: 'O',
  ø: 'o',
  Œ: 'OE',
  œ: 'oe',
  Ł: 'L',
  ł: 'l',
  Đ: 'D',
  đ: 'd',
  Þ: 'Th',
  þ: 'th',
  '\u2018': "'",
  '\u2019': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u00a0': ' ',
};

/**
 * Keeps characters whose code point is at most `maxCodePoint`; others are replaced by their base letter
 * (é → e), a conventional spelling (ß → ss) or "?". Fonts built into PDF readers cover Latin-1 (0xff);
 * the glyphs used for PNG labels cover ASCII (0x7e).
 */
export function restrictCharacters(text: string, maxCodePoint: number): string {
  let out = '';
  for (const char of text) {
    if (char.codePointAt(0)! <= maxCodePoint) {
      out += char;
      continue;
    }
    const replacement = REPLACEMENTS[char] ?? char.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
    out += [...replacement].every((c) => c.codePointAt(0)! <= maxCodePoint) && replacement !== '' ? replacement : '?';
  }
  return out;
}

/** "850 g" below one kilogram, otherwise kilograms with up to two decimals ("2.35 kg"). */
export function formatWeight(grams: number): string {
  if (grams < 1000) return `${Math.round(grams)} g`;
  return `${(Math.round(grams / 10) / 100).toString()} kg`;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** English name of an ISO 3166-1 alpha-2 country code, the code itself when unknown. */
export function countryName(code: string): string {
  const upper = code.toUpperCase();
  try {
    return regionNames.of(upper) ?? upper;
  } catch {
    return upper;
  }
}

/** Countries whose street lines put the house number before the street name. */
const NUMBER_FIRST = new Set(['US', 'GB', 'FR', 'SG', 'CA', 'AU', 'IE', 'NZ']);
/** Countries writing "City, ST 12345". */
const CITY_STATE_POSTAL = new Set(['US', 'CA', 'AU']);

interface RankedLine {
  text: string;
  /** Lines with a lower rank are dropped first when the block has too many. */
  rank: number;
}

/**
 * The lines of an address block in the destination country's usual order, at most `maxLines`:
 * name, company, street lines, locality, country, phone. When there are more, the phone, extra street
 * lines and the company go first.
 */
export function addressLines(address: LabelAddress, maxLines: number): string[] {
  const country = address.country_code.toUpperCase();
  const name = [address.first_name, address.last_name].filter(Boolean).join(' ').trim();
  const lines: RankedLine[] = [];
  const push = (text: string | null | undefined, rank: number) => {
    if (text?.trim()) lines.push({ text: text.trim(), rank });
  };
  push(name || address.company, 9);
  if (name) push(address.company, 3);
  const street = [address.street_name, address.house_number].filter(Boolean);
  push(address.line1 || (NUMBER_FIRST.has(country) ? street.reverse() : street).join(' '), 8);
  push(address.line2, 4);
  push(address.line3, 2);
  const postal = address.postal_code?.trim() ?? '';
  const city = address.city?.trim() ?? '';
  if (CITY_STATE_POSTAL.has(country)) {
    push([city && `${city},`, address.state_or_province, postal].filter(Boolean).join(' ').replace(/,$/, ''), 8);
  } else if (country === 'GB') {
    push(city.toUpperCase(), 7);
    push(postal.toUpperCase(), 8);
  } else if (country === 'SG') {
    push([city, postal].filter(Boolean).join(' '), 8);
  } else {
    push([postal, city].filter(Boolean).join(' '), 8);
  }
  push(countryName(country).toUpperCase(), 6);
  push(address.phone && `Tel. ${address.phone}`, 1);
  while (lines.length > maxLines) {
    const lowest = Math.min(...lines.map((line) => line.rank));
    lines.splice(lines.map((line) => line.rank).lastIndexOf(lowest), 1);
  }
  return lines.map((line) => line.text);
}
