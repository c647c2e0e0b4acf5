import fc from 'fast-check';
import countries from 'i18n-iso-countries';
import { describe, expect, it } from 'vitest';
import { countryByCode, countryByName } from '../../src/domain/reference-data.js';

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
