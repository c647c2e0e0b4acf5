import { describe, expect, it } from 'vitest';
import { checkTrackingNumber, detectCarriers, formatName, readTrackingNumber } from '../../../src/carriers/detect/index.js';
import { royalmFormats } from '../../../src/carriers/detect/royalm.js';

/** `format/check_digit/confidence` of every Royal Mail reading of the number. */
function readings(number: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === 'royalm')
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

describe('Royal Mail 2D barcode ids (21 characters, no check digit published)', () => {
  it('reads 21 digits and capitals A–F, with a letter and a digit, as a low Royal Mail candidate', () => {
    // Royal Mail's documented example shape, and a synthetic id.
    expect(readings('090367574000000FE1E1B')).toEqual(['royalm_2d_21/none/low']);
    expect(readings('0B9A8C7D6E5F40302010A')).toEqual(['royalm_2d_21/none/low']);
    // Written as labels print it, in groups, in lower case.
    expect(readings('0b-9a8 c7d6e 5f403 02010a')).toEqual(['royalm_2d_21/none/low']);
    expect(detectCarriers('0B9A8C7D6E5F40302010A')).toEqual([
      { carrier_id: 'royalm', confidence: 'low', format: 'royalm_2d_21', check_digit: 'none' },
    ]);
    expect(formatName('royalm_2d_21')).toBe('Royal Mail 2D barcode');
  });

  it('leaves out other lengths, other letters, digits only and letters only', () => {
    expect(readings('0B9A8C7D6E5F40302010')).toEqual([]);
    expect(readings('0B9A8C7D6E5F40302010AB')).toEqual([]);
    expect(readings('0B9A8C7D6E5F40302010G')).toEqual([]);
    expect(readings('123456789012345678901')).toEqual([]);
    expect(readings('ABCDEFABCDEFABCDEFABC')).toEqual([]);
  });

  it('is no check-digit reading: never refused for the carrier', () => {
    expect(checkTrackingNumber('royalm', '0B9A8C7D6E5F40302010A')).toEqual({ ok: true });
    expect(royalmFormats('0B9A8C7D6E5F40302010A').every((match) => match.check_digit === 'none')).toBe(true);
  });
});
