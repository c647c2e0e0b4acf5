import { describe, expect, it } from 'vitest';
import { toE164 } from '../../../src/domain/notifications/sms/phone.js';

describe('toE164', () => {
  it.each([
    ['+49 151 23456789', undefined, '+4915123456789'],
    ['+49 (0)151 2345-6789', undefined, '+4915123456789'],
    ['0151 23456789', 'DE', '+4915123456789'],
    ['0151 23456789', 'de', '+4915123456789'],
    ['0049 151 23456789', undefined, '+4915123456789'],
    ['07400 123456', 'GB', '+447400123456'],
    ['06 12 34 56 78', 'FR', '+33612345678'],
    ['(201) 555-0123', 'US', '+12015550123'],
    ['+91 98765 43210', 'IN', '+919876543210'],
    ['  +4915123456789  ', 'FR', '+4915123456789'],
  ])('%s (%s) → %s', (text, country, expected) => {
    expect(toE164(text, country)).toBe(expected);
  });

  it.each([
    ['', undefined],
    ['not a number', undefined],
    ['12345', undefined],
    ['+49 123', undefined],
    ['+1 555 555 5555', undefined],
    ['0151 23456789', undefined],
    ['0151 23456789', 'XX'],
    ['+4915123456789 ext. 12', undefined],
    [`+49${'1'.repeat(80)}`, undefined],
  ])('%s (%s) → null', (text, country) => {
    expect(toE164(text, country)).toBeNull();
  });
});
