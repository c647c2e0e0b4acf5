import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import { FeatureNotEnabledError, type FieldErrors, ValidationError } from '../../domain/errors.js';
import type { ReturnPolicyInput } from '../../domain/returns/return-policy.js';
import type { ReturnPolicyService } from '../../domain/returns/return-policy.service.js';
import { LANGUAGES, type Language } from '../../i18n/languages.js';
import { ReturnPolicyBody } from '../../schemas/return-policy.schemas.js';
import { REFUND_METHODS, RETURN_METHODS } from '../../schemas/returns.schemas.js';
import { fieldErrorsFromAjv } from '../errors.js';
import {
  FORM_ORDER,
  fieldLabel,
  type PolicyFormValues,
  type PortalState,
  type ReasonRow,
  reasonField,
  renderReturnPolicy,
} from '../pages/console/return-policy.html.js';
import { type SignedIn, sendHtml, sessionOf } from './console-session.js';
import { formFields, type QueryFields } from './form-input.js';

/** Empty rows under the reasons, to add new ones (saving gives new empty rows). */
const BLANK_REASON_ROWS = 3;
const MAX_REASONS = 30;
/** More rows than a form of this page ever has (30 reasons and the empty ones): the rest is not read. */
const MAX_REASON_ROWS = 100;
const MAX_LIST_ITEMS = 1000;
const CODE = /^[a-z0-9_]{1,40}$/;
const AMOUNT = /^[0-9]{1,12}(\.[0-9]{1,4})?$/;
const COLOUR = /^#[0-9a-fA-F]{6}$/;
/**
 * A whole policy in a form: up to 30 reasons in seven texts of 200 characters and three lists of up to 1,000
 * lines, percent-encoded. More than the console's usual 16 KiB.
 */
const POLICY_FORM_LIMIT = 2 * 1024 * 1024;

const LISTS = [
  ['non_returnable_product_ids', 'product_ids', 50],
  ['non_returnable_product_references', 'product_references', 50],
  ['non_returnable_categories', 'categories', 500],
] as const;
type ListField = (typeof LISTS)[number][0];

let schemaCheck: ValidateFunction | null = null;
/**
 * The API's own check of a PUT body, compiled once per process: what the form makes of its fields is checked
 * by it too, so that the console never saves a policy the API would refuse.
 */
function apiSchema(): ValidateFunction {
  schemaCheck ??= new Ajv({ allErrors: true, strict: false, strictNumbers: true }).compile(ReturnPolicyBody);
  return schemaCheck;
}

/** Problems by form field; their summary in the order of the form. */
class Problems {
  /** Without a prototype: a field name is only ever a key. */
  readonly byField: Record<string, string[]> = Object.create(null);

  add(field: string, message: string): void {
    const list = this.byField[field] ?? [];
    this.byField[field] = list;
    if (!list.includes(message)) list.push(message);
  }

  get empty(): boolean {
    return Object.keys(this.byField).length === 0;
  }

  summary(): string[] {
    const rank = (field: string) => {
      const reason = /^reason_(\d+)_/.exec(field);
      if (reason) return FORM_ORDER.indexOf('reasons') + (Number(reason[1]) + 1) / (MAX_REASON_ROWS + 2);
      return FORM_ORDER.includes(field) ? FORM_ORDER.indexOf(field) : FORM_ORDER.length;
    };
    return Object.entries(this.byField)
      .sort(([a], [b]) => rank(a) - rank(b))
      .flatMap(([field, messages]) => messages.map((message) => (fieldLabel(field) ? `${fieldLabel(field)}: ${message}` : message)));
  }
}

/** Field errors flattened to `a.b.c` paths (a nested `non_field_errors` belongs to its parent). */
function flatten(errors: FieldErrors, prefix: string[] = []): Array<[string[], string[]]> {
  return Object.entries(errors).flatMap(([key, value]): Array<[string[], string[]]> => {
    const path = key === 'non_field_errors' ? prefix : [...prefix, key];
    return Array.isArray(value) ? [[path, value]] : flatten(value, path);
  });
}

/** The ticked methods: those stored first, in their stored order, then the others in the order of the form. */
function inStoredOrder(stored: readonly string[], ticked: readonly string[]): string[] {
  return [...stored.filter((method) => ticked.includes(method)), ...ticked.filter((method) => !stored.includes(method))];
}

type ShownPolicy = Awaited<ReturnType<ReturnPolicyService['shown']>>;

function emptyTranslations(): Record<Language, string> {
  return Object.fromEntries(LANGUAGES.map((language) => [language, ''])) as Record<Language, string>;
}

function blankRows(count: number): ReasonRow[] {
  return Array.from({ length: count }, () => ({ code: '', label: '', translations: emptyTranslations(), remove: false }));
}

/** The form filled with the stored policy, and empty rows to add reasons. */
function storedValues(shown: ShownPolicy): PolicyFormValues {
  return {
    enabled: shown.enabled,
    portal_name: shown.portal_name ?? '',
    primary_color: shown.branding.primary_color,
    logo_url: shown.branding.logo_url ?? '',
    return_window_days: String(shown.return_window_days),
    return_methods: shown.return_methods,
    refund_methods: shown.refund_methods,
    reasons: [
      ...shown.reasons.map((reason) => ({
        code: reason.code,
        label: reason.label,
        translations: { ...emptyTranslations(), ...reason.translations },
        remove: false,
      })),
      ...blankRows(BLANK_REASON_ROWS),
    ],
    auto_approval_enabled: shown.auto_approval.enabled,
    max_value_amount: shown.auto_approval.max_value?.amount ?? '',
    max_value_currency: shown.auto_approval.max_value?.currency ?? '',
    non_returnable_product_ids: shown.non_returnable.product_ids.join('\n'),
    non_returnable_product_references: shown.non_returnable.product_references.join('\n'),
    non_returnable_categories: shown.non_returnable.categories.join('\n'),
  };
}

function portalOf(shown: ShownPolicy): PortalState {
  return { url: shown.portal_url, enabled: shown.enabled, updatedAt: shown.updated_at };
}

/** What the form's positions in the policy were: the reasons' rows, the lists' line numbers. */
interface Positions {
  reasonRows: number[];
  lines: Record<ListField, number[]>;
}

/**
 * Reads the form: the values to show again, and the service's input when the form itself is sound (the service
 * then checks the rest: unique codes, a real currency, an https logo).
 */
class PolicyForm {
  readonly problems = new Problems();
  private readonly fields: Readonly<Record<string, unknown>>;

  constructor(body: unknown) {
    this.fields = formFields(body);
  }

  /** A text as typed (trimmed), '' when absent; sent twice is a problem. */
  private typed(name: string): string {
    const value = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    if (value === undefined) return '';
    if (typeof value !== 'string') {
      this.problems.add(name, 'Send this field once.');
      return '';
    }
    return value.trim();
  }

  /** The values of a group of checkboxes (one field sent once per ticked box). */
  private ticked(name: string, allowed: readonly string[]): string[] {
    const value = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
    const result: string[] = [];
    for (const item of values) {
      if (typeof item === 'string' && allowed.includes(item)) {
        if (!result.includes(item)) result.push(item);
      } else this.problems.add(name, `Must be among: ${allowed.join(', ')}.`);
    }
    return result;
  }

  /** The reason rows sent, in their order (their numbers need not follow each other). */
  private reasonRows(): ReasonRow[] {
    const numbers = new Set<number>();
    for (const key of Object.keys(this.fields)) {
      const match = /^reason_(\d{1,3})_[a-z]+$/.exec(key);
      if (match) numbers.add(Number(match[1]));
    }
    const sorted = [...numbers].sort((a, b) => a - b);
    if (sorted.length > MAX_REASON_ROWS) this.problems.add('reasons', `At most ${MAX_REASONS} reasons.`);
    // Rows are renumbered from 0 in the order sent, so that a message and its field keep the same number.
    const rows = sorted.slice(0, MAX_REASON_ROWS).map((n) => {
      const part = (name: string) => {
        const value = this.fields[`reason_${n}_${name}`];
        return typeof value === 'string' ? value.trim() : '';
      };
      return {
        sent: n,
        row: {
          code: part('code'),
          label: part('label'),
          translations: Object.fromEntries(LANGUAGES.map((language) => [language, part(language)])) as Record<Language, string>,
          remove: this.fields[`reason_${n}_remove`] === 'on',
        },
      };
    });
    rows.forEach(({ sent }, index) => {
      for (const part of ['code', 'label', 'remove', ...LANGUAGES] as const) {
        const value = this.fields[`reason_${sent}_${part}`];
        if (value !== undefined && typeof value !== 'string') this.problems.add(reasonField(index, part), 'Send this field once.');
      }
    });
    return rows.map(({ row }) => row);
  }

  /** One entry per line: lines trimmed, empty lines left out; each entry's line number kept for its messages. */
  private lines(name: ListField, maxLength: number, lineNumbers: number[]): string[] {
    const raw = Object.hasOwn(this.fields, name) ? this.fields[name] : undefined;
    if (raw !== undefined && typeof raw !== 'string') this.problems.add(name, 'Send this field once.');
    const entries: string[] = [];
    (typeof raw === 'string' ? raw.split(/\r\n|\r|\n/) : []).forEach((line, index) => {
      const entry = line.trim();
      if (entry === '') return;
      if (entry.length > maxLength) this.problems.add(name, `Line ${index + 1}: at most ${maxLength} characters.`);
      entries.push(entry);
      lineNumbers.push(index + 1);
    });
    if (entries.length > MAX_LIST_ITEMS) this.problems.add(name, `At most ${MAX_LIST_ITEMS.toLocaleString('en-GB')} lines.`);
    return entries;
  }

  /** The values to show again, the service's input (null when the form has problems), and where each entry came from. */
  read(stored: ShownPolicy): { values: PolicyFormValues; input: ReturnPolicyInput | null; positions: Positions } {
    const positions: Positions = {
      reasonRows: [],
      lines: { non_returnable_product_ids: [], non_returnable_product_references: [], non_returnable_categories: [] },
    };
    const returnMethods = this.ticked('return_methods', RETURN_METHODS);
    const refundMethods = this.ticked('refund_methods', REFUND_METHODS);
    const values: PolicyFormValues = {
      enabled: this.typed('enabled') === 'on',
      portal_name: this.typed('portal_name'),
      primary_color: this.typed('primary_color'),
      logo_url: this.typed('logo_url'),
      return_window_days: this.typed('return_window_days'),
      // Methods kept keep the order they had (the API may have set one); those added follow.
      return_methods: inStoredOrder(stored.return_methods, returnMethods),
      refund_methods: inStoredOrder(stored.refund_methods, refundMethods),
      reasons: this.reasonRows(),
      auto_approval_enabled: this.typed('auto_approval_enabled') === 'on',
      max_value_amount: this.typed('max_value_amount'),
      max_value_currency: this.typed('max_value_currency').toUpperCase(),
      non_returnable_product_ids: '',
      non_returnable_product_references: '',
      non_returnable_categories: '',
    };
    for (const name of ['enabled', 'auto_approval_enabled'] as const) {
      const value = this.typed(name);
      if (value !== 'on' && value !== 'off') this.problems.add(name, 'Choose on or off.');
    }
    const lists = Object.fromEntries(
      LISTS.map(([field, key, maxLength]) => {
        const raw = this.fields[field];
        values[field] = typeof raw === 'string' ? raw.replace(/\r\n?/g, '\n') : '';
        return [key, this.lines(field, maxLength, positions.lines[field])];
      }),
    ) as ReturnPolicyInput['non_returnable'];

    if (values.portal_name.length > 100) this.problems.add('portal_name', 'At most 100 characters.');
    if (!COLOUR.test(values.primary_color)) this.problems.add('primary_color', 'Enter # and six hexadecimal digits, such as #1f4e79.');
    if (values.logo_url.length > 2000) this.problems.add('logo_url', 'At most 2,000 characters.');
    const days = /^\d{1,3}$/.test(values.return_window_days) ? Number(values.return_window_days) : Number.NaN;
    if (!(days >= 1 && days <= 365)) this.problems.add('return_window_days', 'Enter a number of days from 1 to 365.');
    if (values.return_methods.length === 0) this.problems.add('return_methods', 'Tick at least one return method.');
    if (values.refund_methods.length === 0) this.problems.add('refund_methods', 'Tick at least one refund method.');

    const reasons: ReturnPolicyInput['reasons'] = [];
    values.reasons.forEach((row, index) => {
      const texts = [row.code, row.label, ...LANGUAGES.map((language) => row.translations[language])];
      if (row.remove || texts.every((text) => text === '')) return;
      if (row.code === '') this.problems.add(reasonField(index, 'code'), 'Enter a code.');
      else if (!CODE.test(row.code)) this.problems.add(reasonField(index, 'code'), 'Only lower-case letters, digits and _, at most 40.');
      if (row.label === '') this.problems.add(reasonField(index, 'label'), 'Enter a label.');
      else if (row.label.length > 200) this.problems.add(reasonField(index, 'label'), 'At most 200 characters.');
      const translations: Partial<Record<Language, string>> = {};
      for (const language of LANGUAGES) {
        const text = row.translations[language];
        if (text.length > 200) this.problems.add(reasonField(index, language), 'At most 200 characters.');
        if (text !== '') translations[language] = text;
      }
      reasons.push({ code: row.code, label: row.label, translations });
      positions.reasonRows.push(index);
    });
    if (reasons.length === 0) this.problems.add('reasons', 'Keep at least one reason.');
    if (reasons.length > MAX_REASONS)
      this.problems.add('reasons', `At most ${MAX_REASONS} reasons: remove ${reasons.length - MAX_REASONS}.`);

    const { max_value_amount: amount, max_value_currency: currency } = values;
    if (amount !== '' && !AMOUNT.test(amount)) {
      this.problems.add('max_value_amount', 'Enter an amount such as 150 or 99.95 (a point before the decimals).');
    }
    if (amount === '' && currency !== '') this.problems.add('max_value_amount', 'Enter an amount, or leave the currency empty too.');
    if (amount !== '' && currency === '') this.problems.add('max_value_currency', 'Enter the currency of the amount.');
    else if (currency !== '' && !/^[A-Z]{3}$/.test(currency)) this.problems.add('max_value_currency', 'Enter three letters, such as EUR.');

    if (!this.problems.empty) return { values, input: null, positions };
    return {
      values,
      positions,
      input: {
        enabled: values.enabled,
        portal_name: values.portal_name || null,
        return_window_days: days,
        reasons,
        return_methods: [...values.return_methods],
        refund_methods: [...values.refund_methods],
        auto_approval: { enabled: values.auto_approval_enabled, max_value: amount ? { amount, currency } : null },
        non_returnable: lists,
        branding: { primary_color: values.primary_color, logo_url: values.logo_url || null },
      },
    };
  }
}

/** The form field an error path of the policy (the service's or the API schema's) belongs to, with the message to show there. */
function placed(path: string[], message: string, positions: Positions): [string, string] {
  const [head, second, third, fourth] = path;
  switch (head) {
    case 'enabled':
    case 'portal_name':
    case 'return_window_days':
      return [head, message];
    case 'return_methods':
    case 'refund_methods':
      return [head, message];
    case 'reasons': {
      const row = second === undefined ? undefined : positions.reasonRows[Number(second)];
      if (row === undefined) return ['reasons', message];
      if (third === 'code' || third === 'label') return [reasonField(row, third), message];
      if (third === 'translations' && LANGUAGES.includes(fourth as Language)) return [reasonField(row, fourth as Language), message];
      return [reasonField(row, 'code'), message];
    }
    case 'auto_approval':
      if (second === 'enabled') return ['auto_approval_enabled', message];
      return [third === 'currency' ? 'max_value_currency' : 'max_value_amount', message];
    case 'non_returnable': {
      const list = LISTS.find(([, key]) => key === second);
      if (!list) return ['non_returnable_product_ids', message];
      const line = third === undefined ? undefined : positions.lines[list[0]][Number(third)];
      return [list[0], line === undefined ? message : `Line ${line}: ${message}`];
    }
    case 'branding':
      return [second === 'logo_url' ? 'logo_url' : 'primary_color', message];
    default:
      return ['non_field_errors', message];
  }
}

function placeErrors(errors: FieldErrors, positions: Positions, problems: Problems): void {
  for (const [path, messages] of flatten(errors)) {
    for (const message of messages) problems.add(...placed(path, message, positions));
  }
}

/**
 * The returns policy in the console: the portal's address and state, and one form of every setting, saved
 * through the same service as `PUT /v5/returns/policy/` (and for the same accounts: those with returns).
 */
export const returnPolicyConsoleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { returnPolicies } = app.context;

  const allowed = (session: SignedIn) => {
    if (!session.caller.features.has('returns')) throw new FeatureNotEnabledError('returns');
  };

  app.get<{ Querystring: QueryFields }>('/returns/policy/', async (request, reply) => {
    const session = sessionOf(request);
    allowed(session);
    const shown = await returnPolicies.shown(session.caller.accountId);
    return sendHtml(
      reply,
      200,
      renderReturnPolicy({
        session: session.view,
        portal: portalOf(shown),
        values: storedValues(shown),
        problems: {},
        summary: [],
        saved: request.query.saved === '1',
      }),
    );
  });

  app.post('/returns/policy/', { bodyLimit: POLICY_FORM_LIMIT }, async (request, reply) => {
    const session = sessionOf(request);
    allowed(session);
    const accountId = session.caller.accountId;
    const stored = await returnPolicies.shown(accountId);
    const form = new PolicyForm(request.body);
    const { values, input, positions } = form.read(stored);
    const problems = form.problems;
    if (input) {
      const check = apiSchema();
      if (!check(input)) placeErrors(fieldErrorsFromAjv(check.errors ?? []), positions, problems);
    }
    if (input && problems.empty) {
      try {
        await returnPolicies.put(accountId, input);
        return reply.redirect('/console/returns/policy/?saved=1', 303);
      } catch (error) {
        if (!(error instanceof ValidationError)) throw error;
        placeErrors(error.errors, positions, problems);
      }
    }
    return sendHtml(
      reply,
      400,
      renderReturnPolicy({
        session: session.view,
        portal: portalOf(stored),
        values,
        problems: problems.byField,
        summary: problems.summary(),
        saved: false,
      }),
    );
  });
};
