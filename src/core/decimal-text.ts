/**
 * Numbers that arrive as text (query strings, path parameters, CSV cells) are read in plain decimal notation
 * only: an optional minus, digits, and for a number that need not be whole a decimal point and more digits.
 * JavaScript's `Number()` reads much more than that, and each extra reading is a way to send a value the
 * schema's bounds never see or a value other than the one meant:
 * - `1e309`, `Infinity`: infinite, and a JSON Schema range check skips non-finite numbers;
 * - `1e-400`: a non-zero value read as 0;
 * - `0x10`, `0b1`, `0o7`: another base; ` 5`, `5 `: surrounding white space; `''`: zero.
 * `NaN` and `1_000` are not numbers to `Number()` either, and are refused with the rest.
 */
const INTEGER_TEXT = /^-?[0-9]+$/;
const DECIMAL_TEXT = /^-?[0-9]+(?:\.[0-9]+)?$/;

/**
 * Whether `text` is a number in plain decimal notation that a double holds: a whole one within ±(2^53 − 1) when
 * `integer`, else a finite one that is not read as 0 unless it is 0.
 */
export function isDecimalText(text: string, integer: boolean): boolean {
  // Past 400 characters no shipping quantity is meant, and a long run of digits overflows to Infinity.
  if (text.length > 400 || !(integer ? INTEGER_TEXT : DECIMAL_TEXT).test(text)) return false;
  const value = Number(text);
  // A whole number past 2^53 is read as a neighbour (9007199254740993 as …992), and past 2^63 no database
  // integer holds it; a fraction of 324 zeros and more is no double but 0.
  if (integer) return Number.isSafeInteger(value);
  return Number.isFinite(value) && (value !== 0 || !/[1-9]/.test(text));
}

/** The message for a value that is not such a number, as a field error says it. */
export function decimalTextMessage(integer: boolean): string {
  return integer
    ? `Enter a whole number in decimal digits, such as 20, of at most ${Number.MAX_SAFE_INTEGER}.`
    : 'Enter a number in decimal notation, such as 52.52.';
}
