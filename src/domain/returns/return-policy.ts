import { isWebAddress } from '../../core/web-address.js';
import type { REFUND_METHODS, RETURN_METHODS } from '../../schemas/returns.schemas.js';
import { FieldErrorCollector } from '../errors.js';
import { isCurrency } from '../reference-data.js';
import { amountText } from './refund.js';
import { DEFAULT_RETURN_REASONS, type ReturnReason } from './return-reasons.js';

export type ReturnMethod = (typeof RETURN_METHODS)[number];
export type RefundMethod = (typeof REFUND_METHODS)[number];

/**
 * What a merchant decides about returns through the portal: how long after delivery, for which reasons, by
 * which methods, which returns are approved at once, what cannot be returned, and how the portal looks.
 */
export interface ReturnPolicy {
  enabled: boolean;
  portal_name: string | null;
  return_window_days: number;
  reasons: ReturnReason[];
  return_methods: ReturnMethod[];
  refund_methods: RefundMethod[];
  /** Within the window and at most `max_value` (null: any value): approved at once; otherwise pending the merchant. */
  auto_approval: { enabled: boolean; max_value: { amount: string; currency: string } | null };
  non_returnable: { product_ids: string[]; product_references: string[]; categories: string[] };
  /** `logo_file`: an uploaded logo, kept in the file store (it wins over `logo_url`). */
  branding: { primary_color: string; logo_url: string | null; logo_file?: UploadedLogo | null };
}

/** A logo the merchant uploaded: where the file store keeps it, its type, and a hash that changes with it. */
export interface UploadedLogo {
  key: string;
  content_type: string;
  sha256: string;
  bytes: number;
}

/** A policy as PUT sends it, its shape checked (methods among the known ones): amounts as numbers or decimal strings. */
export type ReturnPolicyInput = Omit<ReturnPolicy, 'auto_approval' | 'reasons' | 'return_methods' | 'refund_methods' | 'branding'> & {
  branding: { primary_color: string; logo_url: string | null };
  return_methods: string[];
  refund_methods: string[];
  reasons: Array<Omit<ReturnReason, 'translations'> & { translations?: ReturnReason['translations'] }>;
  auto_approval: { enabled: boolean; max_value: { amount: number | string; currency: string } | null };
};

/** The policy of an account that never saved one: the portal off, 30 days, the usual reasons and methods. */
export function defaultReturnPolicy(): ReturnPolicy {
  return {
    enabled: false,
    portal_name: null,
    return_window_days: 30,
    reasons: DEFAULT_RETURN_REASONS.map((reason) => ({ ...reason, translations: { ...reason.translations } })),
    return_methods: ['drop_off'],
    refund_methods: ['original_payment'],
    auto_approval: { enabled: false, max_value: null },
    non_returnable: { product_ids: [], product_references: [], categories: [] },
    branding: { primary_color: '#1f4e79', logo_url: null },
  };
}

/**
 * The rules of a policy beyond the shape of its fields: reason codes unique, methods listed once, a real
 * currency, a logo served over https. Throws a ValidationError naming every field at fault.
 */
export function checkedReturnPolicy(input: ReturnPolicyInput): ReturnPolicy {
  const errors = new FieldErrorCollector();
  const codes = new Set<string>();
  input.reasons.forEach((reason, index) => {
    if (codes.has(reason.code)) errors.add(['reasons', index, 'code'], 'Already used by an earlier reason: codes must be unique.');
    codes.add(reason.code);
  });
  for (const field of ['return_methods', 'refund_methods'] as const) {
    const seen = new Set<string>();
    input[field].forEach((method, index) => {
      if (seen.has(method)) errors.add([field, index], 'Listed twice.');
      seen.add(method);
    });
  }
  const maxValue = input.auto_approval.max_value;
  if (maxValue && !isCurrency(maxValue.currency)) {
    errors.add(['auto_approval', 'max_value', 'currency'], 'Not an ISO 4217 currency code.');
  }
  const logo = input.branding.logo_url;
  if (logo !== null && !isWebAddress(logo, 'https')) errors.add(['branding', 'logo_url'], 'Must be an https URL.');
  errors.throwIfAny();
  return {
    enabled: input.enabled,
    portal_name: input.portal_name,
    return_window_days: input.return_window_days,
    reasons: input.reasons.map((reason) => ({ code: reason.code, label: reason.label, translations: { ...reason.translations } })),
    return_methods: [...input.return_methods] as ReturnMethod[],
    refund_methods: [...input.refund_methods] as RefundMethod[],
    auto_approval: {
      enabled: input.auto_approval.enabled,
      max_value: maxValue ? { amount: amountText(maxValue.amount) as string, currency: maxValue.currency } : null,
    },
    non_returnable: {
      product_ids: unique(input.non_returnable.product_ids),
      product_references: unique(input.non_returnable.product_references),
      categories: unique(input.non_returnable.categories),
    },
    branding: { primary_color: input.branding.primary_color.toLowerCase(), logo_url: logo },
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
