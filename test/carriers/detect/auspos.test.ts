import { describe, expect, it } from 'vitest';
import { auspostFormats } from '../../../src/carriers/detect/auspos.js';
import { checkTrackingNumber, detectCarriers, formatName, readTrackingNumber } from '../../../src/carriers/detect/index.js';

/** `format/check_digit/confidence` of every Australia Post reading of the number. */
function readings(number: string): string[] {
  return readTrackingNumber(number)
    .filter((match) => match.carrier_id === 'auspos')
    .map((match) => `${match.format}/${match.check_digit}/${match.confidence}`);
}

describe('Australia Post eParcel article ids (16 characters, check digit not published)', () => {
  it('reads location id + consignment + article 01–20 + service + last-article flag + check as Australia Post, medium', () => {
    expect(readings('WBX9000001010020')).toEqual(['auspost_eparcel_16/none/medium']);
    // The reference's own example shape: a location id with a digit first.
    expect(readings('7XX1000634011427')).toEqual(['auspost_eparcel_16/none/medium']);
    expect(readings('wbx 9000005 02 00 2 0')).toEqual(['auspost_eparcel_16/none/medium']);
    expect(detectCarriers('WBX9000005010011')).toEqual([
      { carrier_id: 'auspos', confidence: 'medium', format: 'auspost_eparcel_16', check_digit: 'none' },
    ]);
    expect(formatName('auspost_eparcel_16')).toBe('Australia Post eParcel article');
  });

  it('leaves out what the shape does not allow: article 00 or past 20, a last-article flag other than 1 or 2, digits only', () => {
    expect(readings('WBX9000001000020')).toEqual([]);
    expect(readings('WBX9000001210020')).toEqual([]);
    expect(readings('WBX9000001010030')).toEqual([]);
    expect(readings('1239000001010020')).toEqual([]);
    expect(readings('WBX900000101002')).toEqual([]);
    expect(readings('WBX90000010100200')).toEqual([]);
  });

  it('is no check-digit reading: never refused for the carrier, whatever the last digit', () => {
    expect(checkTrackingNumber('auspos', 'WBX9000001010029')).toEqual({ ok: true });
    expect(auspostFormats('WBX9000001010029').every((match) => match.check_digit === 'none')).toBe(true);
  });

  it('leaves DHL’s JJD piece numbers to DHL', () => {
    expect(readings('JJD9000001010020')).toEqual([]);
    expect(detectCarriers('JJD9000001010020').map((d) => d.carrier_id)).toEqual(['dhlglb']);
  });
});

describe('Australia Post eParcel consignment ids (10 characters)', () => {
  it('reads location id + 7 digits as a low Australia Post candidate', () => {
    expect(readings('WBX9000005')).toEqual(['auspost_consignment_10/none/low']);
    expect(readings('GDX5000071')).toEqual(['auspost_consignment_10/none/low']);
  });

  it('ten digits are no consignment id (DHL Express waybills are)', () => {
    expect(readings('1234567890')).toEqual([]);
  });
});

describe('Australia Post S10 numbers', () => {
  it('are not read here (s10.ts routes S10 numbers)', () => {
    expect(auspostFormats('RR900001014AU')).toEqual([]);
  });
});
