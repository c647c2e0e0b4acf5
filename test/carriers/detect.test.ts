import { describe, expect, it } from 'vitest';
import { gs1CheckDigit } from '../../src/carriers/detect/check-digits.js';
import { dhlExpressCheckDigit, dhlPaketCheckDigit } from '../../src/carriers/detect/dhl.js';
import { fedexExpressCheckDigit } from '../../src/carriers/detect/fedex.js';
import { glsCheckDigit } from '../../src/carriers/detect/gls.js';
import { checkTrackingNumber, detectCarriers, normalizeTrackingNumber, readTrackingNumber } from '../../src/carriers/detect/index.js';
import { s10CheckDigit } from '../../src/carriers/detect/s10.js';
import { upsCheckDigit } from '../../src/carriers/detect/ups.js';

/** `format/check_digit/confidence` of every reading of the number for one carrier. */
function readings(number: string, carrierId: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === carrierId)
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

/** The number with its last digit moved by one (a one-digit typo in the check digit). */
function offByOne(number: string): string {
  const last = Number(number.at(-1));
  return `${number.slice(0, -1)}${(last + 1) % 10}`;
}

describe('normalizing', () => {
  it('removes spaces and dashes and upper-cases', () => {
    expect(normalizeTrackingNumber(' 1z 999-aa1\t01 2345 6784 ')).toBe('1Z999AA10123456784');
    expect(detectCarriers('1z 999 aa1 01 2345 6784')).toEqual([
      { carrier_id: 'upsglb', confidence: 'high', format: 'ups_1z', check_digit: 'valid' },
    ]);
  });

  it('finds nothing in an empty or unknown number', () => {
    expect(detectCarriers('')).toEqual([]);
    expect(detectCarriers(' - ')).toEqual([]);
    expect(detectCarriers('WB4000123')).toEqual([]);
    expect(detectCarriers('HELLO')).toEqual([]);
  });
});

describe('UPS 1Z (modified modulo 10, letters as UPS converts them)', () => {
  it('computes the check digit over the 15 characters after 1Z', () => {
    // Values 4,F=7,6,W=4,8,2,0,3,1,2,3,4,5,6,7: odd positions 4+6+8+0+1+3+5+7 = 34, even (7+4+2+3+2+4+6)·2 = 56.
    expect(upsCheckDigit('1Z4F6W82031234567?')).toBe(0);
    // A=2, B=3, C=4: odd positions 2+3+4+0+7+5+3+1 = 25, even (1+2+3+1+6+4+2)·2 = 38, total 63 → 7.
    expect(upsCheckDigit('1ZA1B2C3017654321?')).toBe(7);
    // UPS's own published example.
    expect(upsCheckDigit('1Z999AA1012345678?')).toBe(4);
  });

  it('reads a valid number as UPS with high confidence, and one digit off as invalid', () => {
    expect(readings('1Z4F6W820312345670', 'upsglb')).toEqual(['ups_1z/valid/high']);
    expect(readings('1ZA1B2C30176543217', 'upsglb')).toEqual(['ups_1z/valid/high']);
    expect(readings(offByOne('1Z4F6W820312345670'), 'upsglb')).toEqual(['ups_1z/invalid/high']);
    expect(detectCarriers(offByOne('1Z4F6W820312345670'))).toEqual([]);
  });

  it('refuses a 1Z number with a wrong check digit for upsglb only', () => {
    expect(checkTrackingNumber('upsglb', '1Z4F6W820312345670')).toEqual({ ok: true });
    const refused = checkTrackingNumber('upsglb', '1Z4F6W820312345671');
    expect(refused.ok).toBe(false);
    expect(refused.ok === false && refused.message).toContain('UPS 1Z');
    expect(checkTrackingNumber('fdxglb', '1Z4F6W820312345671')).toEqual({ ok: true });
    expect(checkTrackingNumber('sandbx', '1Z4F6W820312345671')).toEqual({ ok: true });
    // A number in a format not known for UPS passes.
    expect(checkTrackingNumber('upsglb', 'ABC-123')).toEqual({ ok: true });
  });
});

describe('FedEx', () => {
  it('Express 12 digits: weights 1, 3, 7 from the right of the first eleven, modulo 11', () => {
    // 8·1 + 7·3 + 6·7 + 5·1 + 4·3 + 3·7 + 2·1 + 1·3 + 0·7 + 0·1 + 7·3 = 135 = 12·11 + 3.
    expect(fedexExpressCheckDigit('70012345678?')).toBe(3);
    // 7·1+6·3+5·7+4·1+3·3+2·7+1·1+0·3+5·7+5·1+5·3 = 143 = 13·11 → 0.
    expect(fedexExpressCheckDigit('55501234567?')).toBe(0);
    expect(readings('700123456783', 'fdxglb')).toEqual(['fedex_express_12/valid/medium']);
    expect(readings(offByOne('700123456783'), 'fdxglb')).toEqual(['fedex_express_12/invalid/medium']);
  });

  it('Ground 15 digits: GS1 modulo 10', () => {
    expect(gs1CheckDigit('12345678901234')).toBe(3);
    expect(readings('123456789012343', 'fdxglb')).toEqual(['fedex_ground_15/valid/medium']);
    expect(readings('123456789012344', 'fdxglb')).toEqual(['fedex_ground_15/invalid/medium']);
  });

  it('Ground 96 (22 digits): GS1 modulo 10 over the last 15 digits, high', () => {
    expect(readings('9622020123456712345678', 'fdxglb')).toEqual(['fedex_ground_96/valid/high']);
    expect(readings(offByOne('9622020123456712345678'), 'fdxglb')).toEqual(['fedex_ground_96/invalid/high']);
    expect(checkTrackingNumber('fdxglb', offByOne('9622020123456712345678')).ok).toBe(false);
  });

  it('door tags have no check digit', () => {
    expect(readings('DT123456789012', 'fdxglb')).toEqual(['fedex_door_tag/none/medium']);
    expect(detectCarriers('dt 1234 5678 9012')[0]).toMatchObject({ carrier_id: 'fdxglb', check_digit: 'none' });
  });

  it('a plain 12-digit number with a wrong check digit is not refused (no distinctive shape)', () => {
    expect(checkTrackingNumber('fdxglb', '700123456784')).toEqual({ ok: true });
  });
});

describe('USPS IMpb and 20-digit numbers (GS1 modulo 10)', () => {
  it('reads 22- and 26-digit IMpb numbers as USPS with high confidence', () => {
    expect(gs1CheckDigit('920550123456789012345')).toBe(3);
    expect(readings('9205501234567890123453', 'uspsus')).toEqual(['usps_impb/valid/high']);
    expect(readings('9205501234567890123454', 'uspsus')).toEqual(['usps_impb/invalid/high']);
    expect(gs1CheckDigit('9270512345678901234567890')).toBe(5);
    expect(readings('92705123456789012345678905', 'uspsus')).toEqual(['usps_impb/valid/high']);
  });

  it('strips the 420 + ZIP (5 or 9 digits) routing prefix', () => {
    expect(readings('42010001 9205501234567890123453', 'uspsus')).toEqual(['usps_impb/valid/high']);
    expect(readings('420100012345 9205501234567890123453', 'uspsus')).toEqual(['usps_impb/valid/high']);
    expect(readings('42010001 9205501234567890123454', 'uspsus')).toEqual(['usps_impb/invalid/high']);
    expect(checkTrackingNumber('uspsus', '420100019205501234567890123454').ok).toBe(false);
    expect(checkTrackingNumber('uspsus', '420100019205501234567890123453')).toEqual({ ok: true });
  });

  it('a 92 IMpb is also a FedEx SmartPost number, low', () => {
    expect(detectCarriers('9205501234567890123453')).toEqual([
      { carrier_id: 'uspsus', confidence: 'high', format: 'usps_impb', check_digit: 'valid' },
      { carrier_id: 'fdxglb', confidence: 'low', format: 'fedex_smartpost', check_digit: 'valid' },
    ]);
  });

  it('20-digit numbers: checked as they are or with the 91 identifier they were printed without', () => {
    expect(gs1CheckDigit('0307179000052348374')).toBe(1);
    expect(readings('03071790000523483741', 'uspsus')).toEqual(['usps_20/valid/medium']);
    expect(gs1CheckDigit('917123456789012345678')).toBe(0);
    expect(readings('71234567890123456780', 'uspsus')).toEqual(['usps_20/valid/medium']);
    expect(readings('71234567890123456781', 'uspsus')).toEqual(['usps_20/invalid/medium']);
  });
});

describe('UPU S10 (modulo 11, weights 8 6 4 2 3 5 9 7)', () => {
  it('computes the check digit, with 10 written as 0 and 11 as 5', () => {
    // 1·8 + 2·6 + 3·4 + 4·2 + 5·3 + 6·5 + 7·9 + 8·7 = 204; 204 mod 11 = 6; 11 − 6 = 5.
    expect(s10CheckDigit('12345678')).toBe(5);
    expect(s10CheckDigit('87654321')).toBe(6);
    expect(s10CheckDigit('00000008')).toBe(0); // 56 mod 11 = 1 → 10 → 0
    expect(s10CheckDigit('00000000')).toBe(5); // 0 mod 11 = 0 → 11 → 5
    expect(s10CheckDigit('47312482')).toBe(9); // the standard's worked example
  });

  it('names the issuing country’s operator, always with low confidence', () => {
    expect(detectCarriers('RR123456785DE')).toEqual([{ carrier_id: 'dhlglb', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('CP876543216FR')).toEqual([{ carrier_id: 'lapost', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('LA000000080NL')).toEqual([{ carrier_id: 'postnl', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('EA000000005US')).toEqual([{ carrier_id: 'uspsus', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('RR123456785GB')).toEqual([{ carrier_id: 'royalm', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('RR123456785SE')).toEqual([{ carrier_id: 'postnd', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('RR123456785DK')).toEqual([{ carrier_id: 'postnd', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('RR123456785CA')).toEqual([{ carrier_id: 'canpos', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    expect(detectCarriers('RR123456785AU')).toEqual([{ carrier_id: 'auspos', confidence: 'low', format: 's10', check_digit: 'valid' }]);
    // Norway's and Finland's are Posten Norge's and Posti's, which Waybill does not track directly.
    expect(detectCarriers('RR123456785NO')).toEqual([]);
    expect(detectCarriers('RR123456785FI')).toEqual([]);
    expect(detectCarriers('RR123456786DE')).toEqual([]);
  });

  it('refuses a wrong check digit for the country’s operator only', () => {
    expect(checkTrackingNumber('postnl', 'LA000000081NL').ok).toBe(false);
    expect(checkTrackingNumber('postnl', 'LA000000080NL')).toEqual({ ok: true });
    expect(checkTrackingNumber('dhlglb', 'LA000000081NL')).toEqual({ ok: true });
  });
});

describe('SSCC (00 + 18 digits, GS1 modulo 10)', () => {
  it('is shared: DHL and FedEx, low', () => {
    expect(gs1CheckDigit('12345678901234567')).toBe(5);
    expect(detectCarriers('00123456789012345675')).toEqual([
      { carrier_id: 'dhlglb', confidence: 'low', format: 'sscc', check_digit: 'valid' },
      { carrier_id: 'fdxglb', confidence: 'low', format: 'sscc', check_digit: 'valid' },
    ]);
    expect(detectCarriers('00123456789012345676')).toEqual([]);
    // No carrier claims a bare SSCC, so none refuses one.
    expect(checkTrackingNumber('dhlglb', '00123456789012345676')).toEqual({ ok: true });
  });

  it("under DHL Paket's company prefix it is DHL's own number", () => {
    expect(gs1CheckDigit('34043412345678901')).toBe(2);
    expect(readings('00340434123456789012', 'dhlglb')).toEqual(['dhl_paket_sscc/valid/high', 'sscc/valid/low']);
    expect(detectCarriers('00340434123456789012')[0]).toEqual({
      carrier_id: 'dhlglb',
      confidence: 'high',
      format: 'dhl_paket_sscc',
      check_digit: 'valid',
    });
    expect(checkTrackingNumber('dhlglb', '00340434123456789013').ok).toBe(false);
  });
});

describe('DHL', () => {
  it('Express 10 digits: the first nine modulo 7', () => {
    expect(dhlExpressCheckDigit('123456789?')).toBe(1); // 123456789 = 7·17636684 + 1
    expect(dhlExpressCheckDigit('987654321?')).toBe(3);
    expect(readings('1234567891', 'dhlglb')).toEqual(['dhl_express_10/valid/medium']);
    expect(readings('1234567892', 'dhlglb')).toEqual(['dhl_express_10/invalid/medium']);
  });

  it('Paket 12 digits: weights 4 and 9 from the left, modulo 10', () => {
    // 9·4+8·9+7·4+6·9+5·4+4·9+3·4+2·9+1·4+0·9+9·4 = 346 → 4.
    expect(dhlPaketCheckDigit('98765432109?')).toBe(4);
    expect(readings('987654321094', 'dhlglb')).toEqual(['dhl_paket_12/valid/medium']);
    expect(readings('987654321095', 'dhlglb')).toEqual(['dhl_paket_12/invalid/medium']);
  });

  it('piece IDs and eCommerce numbers have no check digit', () => {
    expect(readings('JJD000390012345678', 'dhlglb')).toEqual(['dhl_piece_id/none/medium']);
    expect(readings('GM2951173225174494', 'dhlglb')).toEqual(['dhl_ecommerce/none/medium']);
  });
});

describe('GLS parcel numbers (weights 3 and 1, plus one, modulo 10)', () => {
  it('checks the 12-digit form', () => {
    // 2·3+0+1·3+2+3·3+4+5·3+6+7·3+8+9·3 = 101, + 1 = 102 → 8.
    expect(glsCheckDigit('20123456789?')).toBe(8);
    expect(readings('201234567898', 'glsglb')).toEqual(['gls_parcel_12/valid/medium']);
    expect(readings('201234567899', 'glsglb')).toEqual(['gls_parcel_12/invalid/medium']);
  });

  it('the 11-digit form has nothing to check: low', () => {
    expect(readings('20123456789', 'glsglb')).toEqual(['gls_parcel_11/none/low']);
  });

  it('a 12-digit number can pass several carriers’ checks', () => {
    // 456789012342: GLS 2, DHL Paket 9, FedEx 3 → only GLS.
    expect(detectCarriers('456789012342').map((c) => c.carrier_id)).toEqual(['glsglb']);
    // 201298452277 happens to pass all three.
    expect(detectCarriers('201298452277').map((c) => c.carrier_id)).toEqual(['fdxglb', 'dhlglb', 'glsglb']);
  });
});

describe('PostNL and La Poste formats without check digits', () => {
  it('PostNL 3S: four letters and 7 or 9 digits', () => {
    expect(detectCarriers('3SABCD1234567')).toEqual([
      { carrier_id: 'postnl', confidence: 'medium', format: 'postnl_3s', check_digit: 'none' },
    ]);
    expect(detectCarriers('3S ABCD 123456789')[0]?.carrier_id).toBe('postnl');
    expect(detectCarriers('3SABCD12345678')).toEqual([]);
    expect(detectCarriers('3SAB1D1234567')).toEqual([]);
  });

  it('La Poste 13 characters: digit, letter, 11 digits', () => {
    expect(detectCarriers('6A12345678901')).toEqual([
      { carrier_id: 'lapost', confidence: 'medium', format: 'laposte_13', check_digit: 'none' },
    ]);
    expect(checkTrackingNumber('lapost', '6A12345678901')).toEqual({ ok: true });
  });
});
