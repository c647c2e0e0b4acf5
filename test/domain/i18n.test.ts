import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TRIGGERS } from '../../src/core/notification-triggers.js';
import {
  isLanguage,
  LANGUAGES,
  type Language,
  languageOfAcceptLanguage,
  languageOfCountry,
  languageSourcesOfShipment,
  normaliseLanguage,
  resolveLanguage,
} from '../../src/i18n/languages.js';
import {
  CATALOGUES,
  checkMessages,
  formatMessage,
  hasMessage,
  type MessageCatalogue,
  messageArguments,
  messageKeys,
} from '../../src/i18n/messages.js';

const COMMON_KEYS = [
  'notification.common.track_button',
  'notification.common.tracking_number',
  'notification.common.carrier',
  'notification.common.expected_delivery',
  'notification.common.pickup_point',
  'notification.common.opening_hours',
  'notification.common.unsubscribe',
  'notification.common.footer',
  'notification.unsubscribe.title',
  'notification.unsubscribe.confirm_button',
  'notification.unsubscribe.done',
  'notification.unsubscribe.all_from_merchant',
  'notification.unsubscribe.invalid',
];

/** The arguments the notification composer fills in. */
const NOTIFICATION_ARGUMENTS = ['merchant', 'trackingNumber', 'carrier', 'url', 'expected', 'pickupName', 'returnId', 'rejectReason'];

/** Long but ordinary values: a 20-character shop name and a tracking link as the service writes it. */
const SAMPLE = {
  merchant: 'Nordlicht Buchladen!',
  trackingNumber: '00340434161094042557',
  carrier: 'DHL Paket (Germany)',
  url: 'https://track.example-shop.com/t/Q2xvdWQtTm9yZGxpY2h0LTE?lang=en',
  expected: 'Thursday 2 April',
  pickupName: 'Packstation 112',
  returnId: 'RMA-100234',
  rejectReason: 'The item was used.',
};

/** The GSM 03.38 default alphabet (one septet each) and its extension table (two septets each). */
const GSM_BASIC = new Set(
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà',
);
const GSM_EXTENDED = new Set('^{}\\[~]|€\f');

/** Septets of a text in the GSM 7-bit alphabet; null when a character needs UCS-2. */
function gsmSeptets(text: string): number | null {
  let septets = 0;
  for (const char of text) {
    if (GSM_BASIC.has(char)) septets += 1;
    else if (GSM_EXTENDED.has(char)) septets += 2;
    else return null;
  }
  return septets;
}

describe('message catalogues', () => {
  it('pass the check: every language has every English key, every message parses, no argument English lacks', () => {
    expect(checkMessages()).toEqual([]);
  });

  it('have every notification key, for every trigger and the common parts', () => {
    const required = [
      ...TRIGGERS.flatMap((t) => ['subject', 'heading', 'body', 'sms'].map((part) => `notification.${t}.${part}`)),
      ...COMMON_KEYS,
    ];
    for (const key of required) expect(hasMessage(key), key).toBe(true);
    expect(messageKeys('notification.')).toEqual(expect.arrayContaining(required));
    expect(messageKeys('tracking_page.').length).toBeGreaterThan(20);
  });

  it('use the same arguments in every language as in English', () => {
    for (const key of messageKeys()) {
      const english = messageArguments('en', key);
      for (const language of LANGUAGES) expect(messageArguments(language, key), `${language} ${key}`).toEqual(english);
    }
  });

  it('use only the arguments the notification composer fills in, and every SMS links to the tracking page', () => {
    for (const key of messageKeys('notification.')) {
      for (const arg of messageArguments('en', key) ?? []) expect(NOTIFICATION_ARGUMENTS, `${key} {${arg}}`).toContain(arg);
    }
    for (const trigger of TRIGGERS) expect(messageArguments('en', `notification.${trigger}.sms`)).toContain('url');
  });

  it('keep an English SMS within one GSM message (160 septets) once filled, and the others within 160 characters', () => {
    for (const trigger of TRIGGERS) {
      const english = formatMessage('en', `notification.${trigger}.sms`, SAMPLE);
      const septets = gsmSeptets(english);
      expect(septets, english).not.toBeNull();
      expect(septets!, english).toBeLessThanOrEqual(160);
      for (const language of LANGUAGES) {
        const text = formatMessage(language, `notification.${trigger}.sms`, SAMPLE);
        expect([...text].length, `${language}: ${text}`).toBeLessThanOrEqual(160);
      }
    }
  });

  it('write every argument once filled: no brace or argument name is left, apostrophes stay', () => {
    const values = { ...SAMPLE, date: '2 April', from: '1 April', to: '3 April' };
    for (const language of LANGUAGES) {
      for (const key of messageKeys()) {
        const text = formatMessage(language, key, values);
        expect(text, `${language} ${key}`).not.toMatch(/[{}]/);
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        const source = CATALOGUES[language][key];
        expect(text.split(/['’]/).length, `${language} ${key}`).toBe(source.split(/['’]/).length);
      }
    }
  });
});

describe('checkMessages', () => {
  const catalogues = (overrides: Partial<Record<Language, MessageCatalogue>>) =>
    ({ ...Object.fromEntries(LANGUAGES.map((l) => [l, { greeting: 'Hello {merchant}' }])), ...overrides }) as Record<
      Language,
      MessageCatalogue
    >;

  it('finds a missing key, a key English lacks, a message that does not parse, a foreign argument and a quoting apostrophe', () => {
    const problems = checkMessages(
      catalogues({
        en: { greeting: 'Hello {merchant}', bye: 'Bye' },
        de: { greeting: 'Hallo {merchant}', bye: 'Tschüss', extra: 'Extra' },
        fr: { greeting: 'Bonjour {merchant', bye: 'Au revoir' },
        nl: { greeting: 'Hallo {name}', bye: 'Dag' },
        it: { greeting: "Ciao dall'{merchant}", bye: 'Ciao' },
        es: { greeting: 'Hola {merchant}' },
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        'es: "bye" is missing',
        'de: "extra" is not an English key',
        expect.stringMatching(/^fr: "greeting" does not parse/),
        'nl: "greeting" uses {name}, which the English message does not',
        'it: "greeting" has an apostrophe that starts ICU quoting',
      ]),
    );
    expect(problems).toHaveLength(5);
  });

  it('accepts a translation that leaves out an argument English uses', () => {
    expect(checkMessages(catalogues({ de: { greeting: 'Hallo' } }))).toEqual([]);
  });
});

describe('formatMessage', () => {
  it('fills ICU arguments in the language asked for', () => {
    expect(formatMessage('de', 'notification.delivered.subject', { merchant: 'Nordlicht' })).toBe(
      'Ihr Paket von Nordlicht wurde zugestellt',
    );
    expect(formatMessage('fr', 'notification.unsubscribe.all_from_merchant', { merchant: 'Alpha' })).toBe(
      'Ne plus recevoir aucune notification envoyée par Alpha',
    );
  });

  it('answers an unknown language in English, and writes a missing value as nothing rather than failing', () => {
    expect(formatMessage('xx', 'notification.common.track_button')).toBe('Track your parcel');
    expect(formatMessage('', 'notification.common.track_button')).toBe('Track your parcel');
    expect(formatMessage('de', 'notification.unsubscribe.all_from_merchant')).toBe('Keine Benachrichtigungen mehr von ');
    expect(formatMessage('en', 'notification.return_approved.sms', { merchant: null, returnId: undefined, url: 'u' })).toBe(
      ': your return  has been approved. Details: u',
    );
  });

  it('falls back to English for a key a language lacks', () => {
    const german = CATALOGUES.de as Record<string, string>;
    const english = CATALOGUES.en as Record<string, string>;
    english['test.only_english'] = 'Only in English, {merchant}';
    try {
      expect(formatMessage('de', 'test.only_english', { merchant: 'Alpha' })).toBe('Only in English, Alpha');
      german['test.only_english'] = 'Nur {merchant';
      // A broken translation (compiled for the first time here) is answered in English too.
      expect(formatMessage('de', 'test.only_english', { merchant: 'Alpha' })).toBe('Only in English, Alpha');
    } finally {
      delete english['test.only_english'];
      delete german['test.only_english'];
    }
  });

  it('fails for a key no language has', () => {
    expect(() => formatMessage('en', 'notification.no_such_key')).toThrow(/No message "notification.no_such_key"/);
  });

  it('keeps values verbatim: Liquid variables, markup-like text, braces', () => {
    const liquid = formatMessage('it', 'notification.return_rejected.body', {
      merchant: '{{ merchant.name }}',
      returnId: '{{ return.return_id }}',
      rejectReason: '<b>used</b>',
    });
    expect(liquid).toBe(
      '{{ merchant.name }} ha esaminato il suo reso {{ return.return_id }} e purtroppo non può accettarlo. Motivo: <b>used</b>\n\nPer qualsiasi domanda, contatti {{ merchant.name }}.',
    );
  });

  it('gives the same text on every call (compiled once)', () => {
    const first = formatMessage('nl', 'notification.in_transit.sms', SAMPLE);
    expect(formatMessage('nl', 'notification.in_transit.sms', SAMPLE)).toBe(first);
    expect(first).toBe(`${SAMPLE.merchant}: uw pakket is onderweg. Volg het hier: ${SAMPLE.url}`);
  });
});

describe('languages', () => {
  it('lists the six languages', () => {
    expect([...LANGUAGES]).toEqual(['en', 'de', 'fr', 'nl', 'es', 'it']);
    expect(isLanguage('de')).toBe(true);
    expect(isLanguage('DE')).toBe(false);
    expect(isLanguage(null)).toBe(false);
  });

  it('normalises tags to a supported base language', () => {
    const cases: Array<[string | null | undefined, Language | null]> = [
      ['de', 'de'],
      ['DE', 'de'],
      ['de-AT', 'de'],
      ['de_CH', 'de'],
      [' nl-BE ', 'nl'],
      ['fr-CA', 'fr'],
      ['es-419', 'es'],
      ['en-GB', 'en'],
      ['it-IT', 'it'],
      ['deu', 'de'],
      ['ger', 'de'],
      ['fre', 'fr'],
      ['dut', 'nl'],
      ['pt', null],
      ['pt-BR', null],
      ['xx', null],
      ['', null],
      ['d', null],
      ['de-', null],
      ['<b>', null],
      ['english', null],
      [null, null],
      [undefined, null],
    ];
    for (const [input, expected] of cases) expect(normaliseLanguage(input), String(input)).toBe(expected);
  });

  it('maps countries to the language most recipients there read', () => {
    const cases: Array<[string | null, Language | null]> = [
      ['DE', 'de'],
      ['AT', 'de'],
      ['CH', 'de'],
      ['LI', 'de'],
      ['FR', 'fr'],
      ['LU', 'fr'],
      ['MC', 'fr'],
      ['NL', 'nl'],
      ['SR', 'nl'],
      ['ES', 'es'],
      ['MX', 'es'],
      ['AR', 'es'],
      ['CO', 'es'],
      ['CL', 'es'],
      ['PE', 'es'],
      ['IT', 'it'],
      ['SM', 'it'],
      ['GB', 'en'],
      ['US', 'en'],
      ['IE', 'en'],
      ['AU', 'en'],
      ['CA', 'en'],
      ['nz', 'en'],
      // Two of our languages, each a large region's: no guess.
      ['BE', null],
      ['JP', null],
      ['PT', null],
      ['', null],
      ['DEU', null],
      [null, null],
    ];
    for (const [input, expected] of cases) expect(languageOfCountry(input), String(input)).toBe(expected);
  });

  it('reads the browser’s best supported language from Accept-Language', () => {
    const cases: Array<[string | string[] | undefined, Language | null]> = [
      ['de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7', 'de'],
      ['fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5', 'fr'],
      ['ja,en;q=0.5', 'en'],
      ['ja, pt-BR;q=0.9', null],
      ['en;q=0.5, nl', 'nl'],
      ['it;q=0.8, es;q=0.8', 'it'],
      ['de;q=0, fr;q=0.1', 'fr'],
      ['de;q=2, es', 'es'],
      ['*', null],
      ['', null],
      [',,;;=', null],
      [['es-MX', 'en;q=0.1'], 'es'],
      [undefined, null],
    ];
    for (const [input, expected] of cases) expect(languageOfAcceptLanguage(input), String(input)).toBe(expected);
  });

  it('reads only the strings of a list, and never runs or trips over what another value holds', () => {
    const hostile = { toString: 0 } as unknown as string;
    expect(languageOfAcceptLanguage([hostile])).toBeNull();
    expect(languageOfAcceptLanguage([hostile, 'fr;q=0.5', null as unknown as string, 'nl'])).toBe('nl');
    expect(resolveLanguage({ acceptLanguage: [hostile], recipientCountry: 'IT' })).toBe('it');
  });
});

describe('resolveLanguage', () => {
  const all = {
    requested: 'it',
    shipmentLanguage: 'de',
    orderLanguage: 'fr',
    acceptLanguage: 'nl',
    recipientCountry: 'ES',
    accountDefault: 'en',
  };

  it('takes the first source naming a supported language: requested, shipment, order, browser, country, account default', () => {
    expect(resolveLanguage(all)).toBe('it');
    expect(resolveLanguage({ ...all, requested: null })).toBe('de');
    expect(resolveLanguage({ ...all, requested: null, shipmentLanguage: null })).toBe('fr');
    expect(resolveLanguage({ ...all, requested: null, shipmentLanguage: null, orderLanguage: null })).toBe('nl');
    expect(resolveLanguage({ ...all, requested: null, shipmentLanguage: null, orderLanguage: null, acceptLanguage: null })).toBe('es');
    expect(resolveLanguage({ shipmentLanguage: null, orderLanguage: null, recipientCountry: null, accountDefault: 'nl' })).toBe('nl');
  });

  it('is English when no source names a language', () => {
    expect(resolveLanguage({})).toBe('en');
    expect(resolveLanguage({ shipmentLanguage: null, orderLanguage: null, recipientCountry: null, accountDefault: null })).toBe('en');
  });

  it('skips an unknown or unsupported value for the next source, without failing', () => {
    expect(resolveLanguage({ shipmentLanguage: 'xx', orderLanguage: 'de-AT', recipientCountry: 'FR' })).toBe('de');
    expect(resolveLanguage({ shipmentLanguage: 'pt-BR', orderLanguage: '', recipientCountry: 'FR', accountDefault: 'de' })).toBe('fr');
    expect(resolveLanguage({ shipmentLanguage: 'klingon', recipientCountry: 'BE', accountDefault: 'nl' })).toBe('nl');
    expect(resolveLanguage({ recipientCountry: 'JP', accountDefault: 'zz' })).toBe('en');
    expect(resolveLanguage({ shipmentLanguage: 'DE_ch', recipientCountry: 'IT' })).toBe('de');
  });

  it('never fails and always answers a supported language, whatever the sources hold', () => {
    const anything = fc.oneof(fc.string(), fc.constantFrom(null, undefined, 'de', 'FR-be', 'xx', '*'), fc.anything());
    fc.assert(
      fc.property(anything, anything, anything, anything, anything, anything, (a, b, c, d, e, f) => {
        const language = resolveLanguage({
          requested: a as string,
          shipmentLanguage: b as string,
          orderLanguage: c as string,
          acceptLanguage: d as string,
          recipientCountry: e as string,
          accountDefault: f as string,
        });
        return isLanguage(language);
      }),
      { numRuns: 500 },
    );
  });

  it('reads the sources of a stored shipment body', () => {
    expect(
      languageSourcesOfShipment({
        additional_info: { language: 'de-AT' },
        order: { language: 'fr' },
        recipient_address: { country_code: 'NL' },
      }),
    ).toEqual({ shipmentLanguage: 'de-AT', orderLanguage: 'fr', recipientCountry: 'NL' });
    expect(languageSourcesOfShipment({ to_address: { country_code: 'IT' }, additional_info: { language: 7 } })).toEqual({
      shipmentLanguage: null,
      orderLanguage: null,
      recipientCountry: 'IT',
    });
    for (const body of [null, 'text', [], { additional_info: null, recipient_address: 'Berlin' }]) {
      expect(languageSourcesOfShipment(body)).toEqual({ shipmentLanguage: null, orderLanguage: null, recipientCountry: null });
    }
  });
});
