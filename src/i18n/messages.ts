import { IntlMessageFormat } from 'intl-messageformat';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language, LOCALES } from './languages.js';
import { de } from './locales/de.js';
import { en } from './locales/en.js';
import { es } from './locales/es.js';
import { fr } from './locales/fr.js';
import { it } from './locales/it.js';
import { nl } from './locales/nl.js';
import { RETURNS_PORTAL_MESSAGES } from './locales/returns-portal.js';

/** One language's messages: ICU MessageFormat text by key. */
export type MessageCatalogue = Readonly<Record<string, string>>;

/** Every language's messages. English is complete; a key another language lacks is written in English. */
export const CATALOGUES: Readonly<Record<Language, MessageCatalogue>> = {
  en: { ...en, ...RETURNS_PORTAL_MESSAGES.en },
  de: { ...de, ...RETURNS_PORTAL_MESSAGES.de },
  fr: { ...fr, ...RETURNS_PORTAL_MESSAGES.fr },
  nl: { ...nl, ...RETURNS_PORTAL_MESSAGES.nl },
  es: { ...es, ...RETURNS_PORTAL_MESSAGES.es },
  it: { ...it, ...RETURNS_PORTAL_MESSAGES.it },
};

/** The values of a message's arguments; a missing or null value is written as nothing. */
export type MessageValues = Readonly<Record<string, string | number | null | undefined>>;

interface Compiled {
  format: IntlMessageFormat;
  /** The arguments the message uses, each once. */
  args: readonly string[];
}

/** Compiled messages by language and key: each is parsed once. */
const compiled = new Map<string, Compiled>();

/**
 * Tags (`<b>`) are text, not markup: messages are plain text, and whatever renders them (HTML page,
 * e-mail layout, SMS) escapes them.
 */
const OPTIONS = { ignoreTag: true } as const;

interface AstNode {
  type: number;
  value?: unknown;
  options?: Record<string, { value: AstNode[] }>;
  children?: AstNode[];
}

/** Element types of the ICU parser that name an argument: argument, number, date, time, select, plural. */
const ARGUMENT_TYPES = new Set([1, 2, 3, 4, 5, 6]);

function argumentsOf(nodes: readonly AstNode[], into = new Set<string>()): Set<string> {
  for (const node of nodes) {
    if (ARGUMENT_TYPES.has(node.type) && typeof node.value === 'string') into.add(node.value);
    for (const option of Object.values(node.options ?? {})) argumentsOf(option.value, into);
    if (node.children) argumentsOf(node.children, into);
  }
  return into;
}

function compile(language: Language, text: string): Compiled {
  const format = new IntlMessageFormat(text, LOCALES[language], undefined, OPTIONS);
  return { format, args: [...argumentsOf(format.getAst() as unknown as AstNode[])] };
}

function compiledMessage(language: Language, key: string): Compiled | null {
  const cacheKey = `${language}\u0000${key}`;
  const cached = compiled.get(cacheKey);
  if (cached) return cached;
  const text = CATALOGUES[language][key];
  if (text === undefined) return null;
  const message = compile(language, text);
  compiled.set(cacheKey, message);
  return message;
}

function run(message: Compiled, values: MessageValues): string {
  const filled: Record<string, string | number> = {};
  for (const name of message.args) filled[name] = values[name] ?? '';
  const out = message.format.format(filled);
  return Array.isArray(out) ? out.join('') : String(out);
}

/**
 * The message `key` in `language`, its arguments filled from `values`. A language that lacks the key, or whose
 * message fails to compile or format, is answered in English; a key English lacks is a programming error.
 */
export function formatMessage(language: Language | string, key: string, values: MessageValues = {}): string {
  const wanted: Language = isLanguage(language) ? language : DEFAULT_LANGUAGE;
  if (wanted !== DEFAULT_LANGUAGE) {
    try {
      const own = compiledMessage(wanted, key);
      if (own) return run(own, values);
    } catch {
      // A broken translation must not stop a page or a notification: English below.
    }
  }
  const english = compiledMessage(DEFAULT_LANGUAGE, key);
  if (!english) throw new Error(`No message "${key}"`);
  return run(english, values);
}

/** Whether `key` is a message (English has every key). */
export function hasMessage(key: string): boolean {
  return Object.hasOwn(CATALOGUES[DEFAULT_LANGUAGE], key);
}

/** The keys of all messages, or of those starting with `prefix`, sorted. */
export function messageKeys(prefix = ''): string[] {
  return Object.keys(CATALOGUES[DEFAULT_LANGUAGE])
    .filter((key) => key.startsWith(prefix))
    .sort();
}

/** The arguments a message uses in a language, sorted; null when the language has no such message. */
export function messageArguments(language: Language, key: string, catalogues = CATALOGUES): string[] | null {
  const text = catalogues[language][key];
  return text === undefined ? null : [...compile(language, text).args].sort();
}

/**
 * An ASCII apostrophe right before `{`, `}`, `#`, `|` or another apostrophe starts ICU quoting and turns what
 * follows into literal text (`d'{merchant}` loses its argument): messages use ’ there, or `''`.
 */
const QUOTING_APOSTROPHE = /'[{}#|]/;

/**
 * What is wrong with a set of catalogues, one line per problem (none when all is well): a key English has
 * and another language lacks, a key only another language has, a message that does not parse, an argument
 * English does not use, an apostrophe that quotes.
 */
export function checkMessages(catalogues: Readonly<Record<Language, MessageCatalogue>> = CATALOGUES): string[] {
  const problems: string[] = [];
  const english = catalogues[DEFAULT_LANGUAGE];
  const englishArgs = new Map<string, Set<string>>();
  // English first: the others are compared with it.
  const order = [DEFAULT_LANGUAGE, ...LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE)];
  for (const language of order) {
    const catalogue = catalogues[language];
    for (const key of Object.keys(english)) {
      if (!Object.hasOwn(catalogue, key)) problems.push(`${language}: "${key}" is missing`);
    }
    for (const [key, text] of Object.entries(catalogue)) {
      if (!Object.hasOwn(english, key)) {
        problems.push(`${language}: "${key}" is not an English key`);
        continue;
      }
      if (QUOTING_APOSTROPHE.test(text)) problems.push(`${language}: "${key}" has an apostrophe that starts ICU quoting`);
      let args: readonly string[];
      try {
        args = compile(language, text).args;
      } catch (error) {
        problems.push(`${language}: "${key}" does not parse: ${(error as Error).message}`);
        continue;
      }
      if (language === DEFAULT_LANGUAGE) {
        englishArgs.set(key, new Set(args));
        continue;
      }
      const allowed = englishArgs.get(key);
      if (!allowed) continue;
      for (const arg of args) {
        if (!allowed.has(arg)) problems.push(`${language}: "${key}" uses {${arg}}, which the English message does not`);
      }
    }
  }
  return problems;
}
