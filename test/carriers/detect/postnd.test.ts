import { describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../../src/carriers/detect/check-digits.js';
import { checkTrackingNumber, detectCarriers, formatName, readTrackingNumber } from '../../../src/carriers/detect/index.js';
import { postnordFormats } from '../../../src/carriers/detect/postnd.js';

/** `format/check_digit/confidence` of every reading of the number for one carrier. */
function readings(number: string, carrierId: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === carrierId)
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

describe('PostNord 11 digits + SE (no published check digit)', () => {
  it('reads the shape of PostNord’s documented identifiers as PostNord, medium', () => {
    // The identifiers PostNord's documentation uses as examples.
    expect(readings('96932007555SE', 'postnd')).toEqual(['postnord_11se/none/medium']);
    expect(readings('84971563697SE', 'postnd')).toEqual(['postnord_11se/none/medium']);
    expect(detectCarriers('9000 0000 101 se')).toEqual([
      { carrier_id: 'postnd', confidence: 'medium', format: 'postnord_11se', check_digit: 'none' },
    ]);
    expect(formatName('postnord_11se')).toBe('PostNord');
    expect(checkTrackingNumber('postnd', '90000000101SE')).toEqual({ ok: true });
  });

  it('reads no other length or suffix', () => {
    expect(postnordFormats('9000000010SE')).toEqual([]);
    expect(postnordFormats('900000001011SE')).toEqual([]);
    expect(postnordFormats('90000000101DK')).toEqual([]);
    expect(postnordFormats('9000000010ASE')).toEqual([]);
  });
});

describe('what PostNord detection leaves to others', () => {
  it('reads no SSCC as PostNord’s (its GS1 prefix is not published) and leaves S10 numbers to s10.ts', () => {
    const sscc = `0037390000000000003${gs1CheckDigit('37390000000000003')}`;
    expect(sscc).toBe('00373900000000000037');
    expect(readings(sscc, 'postnd')).toEqual([]);
    expect(readings('RR900000019SE', 'postnd')).toEqual(['s10/valid/low']);
    expect(postnordFormats('LX900000075DK')).toEqual([]);
  });
});
