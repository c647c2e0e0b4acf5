/** Reading FedEx's Ship and Locations answers safely: every value is checked before use, so any JSON maps without a throw. */

export type Json = Record<string, unknown>;

export function object(value: unknown): Json | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : null;
}

/** The objects of an array (anything else is no entries). */
export function many(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(object).filter((item): item is Json => item !== null) : [];
}

/** A non-empty trimmed string (numbers as their text), else null. */
export function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.replace(/\s+/g, ' ').trim() : null;
}

/** A finite number from a number or a numeric string, else null. */
export function numeric(value: unknown): number | null {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
}

/** Base64 text to bytes; null when it is not base64 or decodes to nothing. */
export function base64Bytes(value: unknown): Buffer | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  return bytes.length > 0 ? bytes : null;
}
