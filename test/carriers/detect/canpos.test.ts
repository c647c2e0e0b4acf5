import { describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../../src/carriers/detect/check-digits.js';
import { checkTrackingNumber, detectCarriers, readTrackingNumber } from '../../../src/carriers/detect/index.js';

/** `format/check_digit/confidence` of every Canada Post reading of the number. */
function readings(number: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === 'canpos')
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

/** The number with its last digit moved by one (a one-digit typo in the check digit). */
function offByOne(number: string): string {
  const last = Number(number.at(-1));
  return `${number.slice(0, -1)}${(last + 1) % 10}`;
}

describe('Canada Post PINs (16 digits, GS1 modulo 10 over the first fifteen)', () => {
  it('computes the check digit of the 16-digit PINs in Canada Post’s samples', () => {
    // The sample PINs of Canada Post's developer documentation and code samples all carry it.
    expect(gs1CheckDigit('137113458376992')).toBe(3);
    expect(gs1CheckDigit('168133433293690')).toBe(1);
    // Synthetic: weights 3, 1, 3, … from the right: 1·3 + 3·1 + 2·3 + 7·3 = 33, brought up to 40: 7.
    expect(gs1CheckDigit('702300000000001')).toBe(7);
  });

  it('reads a 16-digit PIN with a valid check digit as Canada Post, medium confidence', () => {
    expect(readings('7023000000000017')).toEqual(['canpos_pin_16/valid/medium']);
    expect(readings('1371134583769923')).toEqual(['canpos_pin_16/valid/medium']);
    expect(detectCarriers('7023 0000 0000 0017')).toEqual(
      expect.arrayContaining([{ carrier_id: 'canpos', confidence: 'medium', format: 'canpos_pin_16', check_digit: 'valid' }]),
    );
  });

  it('a 16-digit number whose check digit is wrong is not suggested, but not refused either', () => {
    expect(readings(offByOne('7023000000000017'))).toEqual(['canpos_pin_16/invalid/medium']);
    expect(detectCarriers(offByOne('7023000000000017')).map((d) => d.carrier_id)).not.toContain('canpos');
    // Sixteen digits are no shape only Canada Post issues: the number may still be one of its other kinds.
    expect(checkTrackingNumber('canpos', offByOne('7023000000000017'))).toEqual({ ok: true });
  });

  it('reads no 12-digit number: Canada Post documents no check digit for them', () => {
    expect(readings('702300000150')).toEqual([]);
  });

  it('leaves other lengths, letters and S10 numbers to the others', () => {
    expect(readings('70230000000000170')).toEqual([]);
    expect(readings('702300000000001')).toEqual([]);
    expect(readings('7023A00000000017')).toEqual([]);
    // Canada Post's S10 numbers are read by s10.ts, as Canada Post's with low confidence.
    expect(readings('RA123456785CA')).toEqual(['s10/valid/low']);
  });
});
