import fc from 'fast-check';
import countries from 'i18n-iso-countries';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { describe, expect, it } from 'vitest';
import { countryByCode, countryByName, isPhoneNumber } from '../../src/domain/reference-data.js';

const LANGUAGES = ['en', 'de', 'fr', 'nl', 'es', 'it'];

/** What the library's own look-up finds: each language in turn, every name of every country compared. */
function scanned(name: string) {
  const trimmed = name.trim();
  for (const lang of LANGUAGES) {
    const code = countries.getAlpha2Code(trimmed, lang);
    if (code) return countryByCode(code);
  }
  return trimmed.length === 2 ? countryByCode(trimmed) : null;
}

describe('country names', () => {
  const names = LANGUAGES.flatMap((lang) => Object.values(countries.getNames(lang, { select: 'all' })).flat() as string[]);

  it('finds every name in every language, in any case, as the library scan does', () => {
    expect(names.length).toBeGreaterThan(1000);
    for (const name of names) {
      for (const variant of [name, name.toUpperCase(), name.toLowerCase(), ` ${name} `]) {
        expect(countryByName(variant), variant).toEqual(scanned(variant));
      }
    }
    expect(countryByName('Germany')).toEqual({ code: 'DE', name: 'Germany' });
    expect(countryByName('Deutschland')).toEqual({ code: 'DE', name: 'Germany' });
    expect(countryByName('de')).toEqual({ code: 'DE', name: 'Germany' });
  });

  it('answers any other text as the scan does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.constantFrom(...names).map((n) => `${n}x`),
          fc.constantFrom('xx', 'ZZ', 'nl', ' fr'),
        ),
        (text) => {
          expect(countryByName(text)).toEqual(scanned(text));
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('phone numbers', () => {
  /** What the library says of a number, parsed every time. */
  const parsed = (value: string) => /^\+[0-9 ()./-]+$/.test(value) && (parsePhoneNumberFromString(value)?.isPossible() ?? false);

  it('answers a number checked before as the library does, also after many others', () => {
    const repeated = ['+31201234567', '+493012345678', '+999 1', '+1', 'not a number', '+44 20 7946 0958'];
    const answers = repeated.map(parsed);
    expect(answers).toEqual([true, true, false, false, false, true]);
    for (let round = 0; round < 3; round++) {
      expect(repeated.map(isPhoneNumber)).toEqual(answers);
      // More distinct numbers than the checks keep in between.
      for (let i = 0; i < 3000; i++) isPhoneNumber(`+31 6 ${String(round * 3000 + i).padStart(8, '0')}`);
    }
  });

  it('answers any text as the library does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^\+[0-9 ]{1,16}$/)), (value) => {
        expect(isPhoneNumber(value)).toBe(parsed(value));
        expect(isPhoneNumber(value)).toBe(parsed(value));
      }),
    );
  });
});

describe('country codes', () => {
  /**
   * What the library answers for a code, checked and named on each call. A code is two characters as sent: one
   * character whose capital is two letters ("ß" is "SS", "ﬁ" is "FI") names no country, where it once named one.
   */
  function checked(code: string) {
    const upper = code.toUpperCase();
    if (code.length !== 2 || !/^[A-Z]{2}$/.test(upper) || !countries.isValid(upper)) return null;
    return { code: upper, name: countries.getName(upper, 'en') };
  }

  it('answers every pair of letters, in either case, as the library does', () => {
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    let found = 0;
    for (const a of letters) {
      for (const b of letters) {
        for (const code of [a + b, (a + b).toLowerCase(), a + b.toLowerCase()]) {
          expect(countryByCode(code), code).toEqual(checked(code));
        }
        if (countryByCode(a + b)) found++;
      }
    }
    expect(found).toBe(Object.keys(countries.getAlpha2Codes()).length);
    expect(countryByCode('de')).toEqual({ code: 'DE', name: 'Germany' });
  });

  it('answers any other text as the library does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('DEU', '276', ' D', 'D ', 'ß', 'ﬁ', 'ǅ', 'Ǳ')), (text) => {
        expect(countryByCode(text)).toEqual(checked(text));
      }),
      { numRuns: 5000 },
    );
  });
});
