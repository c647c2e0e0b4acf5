import { describe, expect, it } from 'vitest';
import { dpdCheckCharacter, dpdParcelNumber } from '../../../src/carriers/detect/dpdeur.js';
import { checkTrackingNumber, detectCarriers, readTrackingNumber } from '../../../src/carriers/detect/index.js';

/** `format/check_digit/confidence` of every reading of the number for DPD. */
function readings(number: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === 'dpdeur')
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

describe('DPD parcel numbers (14 digits, ISO/IEC 7064 MOD 37,36 check character)', () => {
  it('computes the check character', () => {
    // A published label example: depot 0190, serial 5002345615 → check character Y.
    expect(dpdCheckCharacter('01905002345615')).toBe('Y');
    // The synthetic numbers of the fixtures: a letter and a digit.
    expect(dpdCheckCharacter('09980000000011')).toBe('H');
    expect(dpdCheckCharacter('05320000000031')).toBe('7');
    // Letters count 10–35 in the sum; anything else has no check character.
    expect(dpdCheckCharacter('0998000000001A')).toBe('0');
    expect(dpdCheckCharacter('0998000000001-')).toBe('');
  });

  it('reads 14 digits as a DPD parcel number without check (low)', () => {
    expect(readings('09980000000011')).toEqual(['dpd_parcel_14/none/low']);
    expect(detectCarriers('0998 0000 0000 11')).toContainEqual({
      carrier_id: 'dpdeur',
      confidence: 'low',
      format: 'dpd_parcel_14',
      check_digit: 'none',
    });
  });

  it('reads 14 digits and a letter as DPD with high confidence when the letter is their check character', () => {
    expect(readings('09980000000011H')).toEqual(['dpd_parcel_15/valid/high']);
    expect(detectCarriers('0998 0000 0000 11 H')).toEqual([
      { carrier_id: 'dpdeur', confidence: 'high', format: 'dpd_parcel_15', check_digit: 'valid' },
    ]);
    expect(readings('09980000000011J')).toEqual(['dpd_parcel_15/invalid/high']);
    expect(detectCarriers('09980000000011J')).toEqual([]);
  });

  it('a check digit makes 15 digits, a shape FedEx Ground shares: medium', () => {
    expect(readings('053200000000317')).toEqual(['dpd_parcel_15/valid/medium']);
    expect(detectCarriers('053200000000317')).toContainEqual({
      carrier_id: 'dpdeur',
      confidence: 'medium',
      format: 'dpd_parcel_15',
      check_digit: 'valid',
    });
    expect(readings('053200000000318')).toEqual(['dpd_parcel_15/invalid/medium']);
  });

  it('refuses a wrong check letter for dpdeur, but not a wrong check digit (another carrier’s 15 digits) nor other shapes', () => {
    const refused = checkTrackingNumber('dpdeur', '09980000000011J');
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.message).toContain('DPD parcel number');
    expect(checkTrackingNumber('dpdeur', '09980000000011H')).toEqual({ ok: true });
    expect(checkTrackingNumber('dpdeur', '053200000000318')).toEqual({ ok: true });
    expect(checkTrackingNumber('dpdeur', '09980000000011')).toEqual({ ok: true });
    expect(checkTrackingNumber('upsglb', '09980000000011J')).toEqual({ ok: true });
  });

  it('reads nothing else as DPD', () => {
    for (const number of ['0998000000001', '099800000000111', '0998000000001AB', 'A9980000000011', '1Z999AA10123456784']) {
      expect(readings(number), number).toEqual(number === '099800000000111' ? ['dpd_parcel_15/invalid/medium'] : []);
    }
  });

  it('gives the 14 digits DPD’s service takes', () => {
    expect(dpdParcelNumber('09980000000011')).toBe('09980000000011');
    expect(dpdParcelNumber('09980000000011H')).toBe('09980000000011');
    expect(dpdParcelNumber('09980000000011J')).toBeNull();
    expect(dpdParcelNumber('0998000000001')).toBeNull();
  });
});
