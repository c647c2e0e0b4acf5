import { type TObject, type TSchema, Type } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';

/**
 * The settings a carrier configuration holds, described per adapter with TypeBox. A setting marked
 * secret (`secret(Type.String())`) is stored encrypted like the others, never echoed back, and never
 * written to logs or errors.
 */

const SECRET = 'x-secret';

/** Marks a setting as secret: shown to merchants as set or not set, never its value. */
export function secret<T extends TSchema>(schema: T): T {
  return { ...schema, [SECRET]: true };
}

export function isSecret(schema: TSchema | undefined): boolean {
  return Boolean(schema && (schema as Record<string, unknown>)[SECRET] === true);
}

/** `production` (the default) or `sandbox`, for carriers that have a test environment. */
export const EnvironmentSetting = Type.Optional(
  Type.Union([Type.Literal('production'), Type.Literal('sandbox')], {
    description: 'production (default) or sandbox, the carrier test environment',
  }),
);

/** Seconds between polls of an active shipment at most; every adapter accepts it. */
export const PollIntervalSetting = Type.Optional(
  Type.Integer({ minimum: 10, maximum: 604_800, description: 'Longest wait between two polls of one shipment, in seconds' }),
);

/** A non-empty credential text without surrounding whitespace. */
export const CredentialText = (description: string) => Type.String({ minLength: 1, maxLength: 500, pattern: '^\\S(.*\\S)?$', description });

export type CarrierEnvironment = 'production' | 'sandbox';

export function environmentOf(settings: Readonly<Record<string, unknown>>): CarrierEnvironment {
  return settings.environment === 'sandbox' ? 'sandbox' : 'production';
}

/** A problem with one setting, keyed like the request body (`settings.client_secret`). */
export interface SettingError {
  path: Array<string | number>;
  message: string;
}

const ajv = new Ajv({ allErrors: true, strict: false, strictNumbers: true });
const compiled = new WeakMap<TObject, ReturnType<typeof ajv.compile>>();

/**
 * Checks settings against an adapter's schema. `effective` is what the adapter will use: the
 * merchant's settings over the operator's (`WAYBILL_CARRIER_<ID>_<SETTING>`), so a setting the
 * operator provides is not missing. Paths start with `settings`.
 */
export function checkSettings(schema: TObject, effective: Record<string, unknown>): SettingError[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile({ ...schema, additionalProperties: false });
    compiled.set(schema, validate);
  }
  if (validate(effective)) return [];
  return (validate.errors ?? []).map((error) => settingError(error, schema));
}

function settingError(error: ErrorObject, schema: TObject): SettingError {
  const path = error.instancePath.split('/').filter(Boolean);
  if (error.keyword === 'required') {
    const name = String(error.params.missingProperty);
    return { path: ['settings', name], message: `Required: ${describe(schema.properties[name]) ?? name}.` };
  }
  if (error.keyword === 'additionalProperties') {
    const name = String(error.params.additionalProperty);
    const known = Object.keys(schema.properties).join(', ');
    return { path: ['settings', name], message: `Unknown setting for this carrier. Known settings: ${known}.` };
  }
  const field = schema.properties[path[0] ?? ''];
  // A secret's value is never quoted back, whatever the check was.
  const message = isSecret(field) ? 'Invalid value.' : (error.message ?? 'Invalid value.');
  return {
    path: ['settings', ...path],
    message: `${message.charAt(0).toUpperCase()}${message.slice(1)}${message.endsWith('.') ? '' : '.'}`,
  };
}

function describe(schema: TSchema | undefined): string | undefined {
  return typeof schema?.description === 'string' ? schema.description : undefined;
}

/** The text shown for a secret setting that is set. */
export const MASK = '********';

/**
 * Settings as merchants and operators see them: secrets replaced by `MASK`, other values as stored.
 * Settings the schema does not know (stored before a schema existed) are shown masked too.
 */
export function maskSettings(schema: TObject, settings: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(settings)) {
    const field = schema.properties[name];
    shown[name] = field && !isSecret(field) ? value : MASK;
  }
  return shown;
}

/** The names of an adapter's secret settings, for redaction. */
export function secretNames(schema: TObject): string[] {
  return Object.entries(schema.properties)
    .filter(([, field]) => isSecret(field))
    .map(([name]) => name);
}

/**
 * Applies a settings change as a JSON merge patch (RFC 7396, one level): a value replaces, `null`
 * removes, a missing key keeps what is stored. Rotating a secret is sending only that secret.
 */
export function mergeSettings(
  stored: Readonly<Record<string, unknown>>,
  patch: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}
