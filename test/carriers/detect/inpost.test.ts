import { describe, expect, it } from 'vitest';
import { checkTrackingNumber, detectCarriers, formatName, readTrackingNumber } from '../../../src/carriers/detect/index.js';
import { inpostFormats } from '../../../src/carriers/detect/inpost.js';

/** `format/check_digit/confidence` of every reading of the number for one carrier. */
function readings(number: string, carrierId: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === carrierId)
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

describe('InPost 24 digits (no published check digit)', () => {
  it('reads 24 digits as InPost with low confidence: a length alone names no carrier', () => {
    expect(readings('620000000000000000000001', 'inpost')).toEqual(['inpost_24/none/low']);
    // The documentation's own example number.
    expect(readings('612345678901234567890123', 'inpost')).toEqual(['inpost_24/none/low']);
    expect(detectCarriers('6200 0000 0000 0000 0000 0001')).toEqual([
      { carrier_id: 'inpost', confidence: 'low', format: 'inpost_24', check_digit: 'none' },
    ]);
    expect(formatName('inpost_24')).toBe('InPost');
  });

  it('reads no other length, and nothing with letters', () => {
    expect(inpostFormats('62000000000000000000001')).toEqual([]);
    expect(inpostFormats('6200000000000000000000012')).toEqual([]);
    expect(inpostFormats('62000000000000000000000A')).toEqual([]);
    expect(readings('JJD000390007812345678', 'inpost')).toEqual([]);
    expect(readings('LA123456785PL', 'inpost')).toEqual([]);
  });

  it('another carrier’s long numbers are not read as InPost', () => {
    // A 26-digit USPS IMpb and a 20-digit SSCC are not 24 digits.
    expect(readings('92055901755477000000000015', 'inpost')).toEqual([]);
    expect(readings('00340433836442636597', 'inpost')).toEqual([]);
  });

  it('never refuses a number for inpost: there is no check digit to fail', () => {
    expect(checkTrackingNumber('inpost', '620000000000000000000001')).toEqual({ ok: true });
    expect(checkTrackingNumber('inpost', '1Z4F6W820312345671')).toEqual({ ok: true });
  });
});
