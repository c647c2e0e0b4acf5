import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/**
 * UPS's own OpenAPI documents (UPS-API/api-documentation, MIT; vendored in ../fixtures/upsglb/spec with
 * their LICENSE) as JSON Schema validators, for the local UPS to check what it receives and for the
 * fixtures to be checked against what UPS documents.
 *
 * A few of UPS's schemas contradict their own descriptions; each correction below says which text it
 * follows. Nothing else is changed.
 */

const SPEC_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'upsglb', 'spec');

type Schemas = Record<string, Record<string, any>>;

function load(file: string): Schemas {
  return (JSON.parse(fs.readFileSync(path.join(SPEC_DIR, file), 'utf8')) as { components: { schemas: Schemas } }).components.schemas;
}

/** Corrections, each backed by the schema's own description. */
export const SPEC_CORRECTIONS: Array<{ file: 'Shipping' | 'Locator'; schema: string; change: string; apply(schemas: Schemas): void }> = [
  {
    file: 'Shipping',
    schema: 'LabelRecoveryRequest',
    change:
      'required is Request only: TrackingNumbers "List of Roadie (1R) tracking numbers" and ReferenceValues "mandatory for only Roadie shipments"',
    apply: (s) => {
      s.LabelRecoveryRequest.required = ['Request'];
    },
  },
  {
    file: 'Shipping',
    schema: 'LabelRecovery_LabelSpecification_LabelImageFormat.Code',
    change: 'minLength 3: the valid values it lists are GIF, PDF, ZPL, EPL, SPL',
    apply: (s) => {
      s.LabelRecovery_LabelSpecification_LabelImageFormat.properties.Code.minLength = 3;
    },
  },
  {
    file: 'Shipping',
    schema: 'ShipmentServiceOptions_Notification.NotificationCode',
    change: 'maxLength 3: its valid values include 012 (Alternate Delivery Location Notification)',
    apply: (s) => {
      s.ShipmentServiceOptions_Notification.properties.NotificationCode.maxLength = 3;
    },
  },
  {
    file: 'Shipping',
    schema: 'LabelImage_LabelImageFormat.Code',
    change: 'minLength 3: "Valid value returned is GIF or PDF"',
    apply: (s) => {
      s.LabelImage_LabelImageFormat.properties.Code.minLength = 3;
    },
  },
  {
    file: 'Shipping',
    schema: 'ShipmentResults_BillingWeight.Weight',
    change:
      'no length 8: UPS\'s own example answers carry "50.0" (UPS-API/java-api-examples, shipping/src/main/resources/Response/ShippingMultiPieceShippingResponse.json)',
    apply: (s) => {
      delete s.ShipmentResults_BillingWeight.properties.Weight.minLength;
    },
  },
  {
    file: 'Locator',
    schema: 'StandardHours_DayOfWeek (OpenHours, CloseHours, LatestDropOffHours, PrepHours)',
    change: 'minLength 1: "military format (HHMM) e.g. 930, 1700, 1845 … For midnight the time will be returned as 0"',
    apply: (s) => {
      for (const name of ['OpenHours', 'CloseHours', 'LatestDropOffHours', 'PrepHours'])
        s.StandardHours_DayOfWeek.properties[name].minLength = 1;
    },
  },
  {
    file: 'Locator',
    schema: 'LocatorRequest_Request.RequestAction',
    change: 'no length 13: "The only valid value is \'Locator\'"',
    apply: (s) => {
      delete s.LocatorRequest_Request.properties.RequestAction.minLength;
      delete s.LocatorRequest_Request.properties.RequestAction.maxLength;
    },
  },
  {
    file: 'Locator',
    schema: 'OriginAddress_AddressKeyFormat',
    change:
      'required is CountryCode only: "The element CountryCode is required"; PostcodePrimaryLow "Required if the user does not submit the City, State/Province"',
    apply: (s) => {
      s.OriginAddress_AddressKeyFormat.required = ['CountryCode'];
    },
  },
  {
    file: 'Locator',
    schema: 'LocatorRequest_OriginAddress',
    change: 'a Geocode alone is accepted (not documented either way; docs/carriers/upsglb.md lists it as unverified)',
    apply: (s) => {
      s.LocatorRequest_OriginAddress.required = [];
    },
  },
];

function validators(file: 'Shipping' | 'Locator', roots: string[]): Record<string, ValidateFunction> {
  const schemas = structuredClone(load(`${file}.json`));
  for (const correction of SPEC_CORRECTIONS) if (correction.file === file) correction.apply(schemas);
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  ajv.addSchema({ $id: file, components: { schemas } });
  return Object.fromEntries(roots.map((root) => [root, ajv.compile({ $ref: `${file}#/components/schemas/${root}` })]));
}

let shipping: Record<string, ValidateFunction> | undefined;
let locator: Record<string, ValidateFunction> | undefined;

export type SpecSchema =
  | 'SHIPRequestWrapper'
  | 'SHIPResponseWrapper'
  | 'VOIDSHIPMENTResponseWrapper'
  | 'LABELRECOVERYRequestWrapper'
  | 'LABELRECOVERYResponseWrapper'
  | 'ErrorResponse'
  | 'LOCATORRequestWrapper'
  | 'LOCATORResponseWrapper';

/** What UPS's schema finds wrong with a body (`path: message`), none when it is valid. */
export function specProblems(schema: SpecSchema, body: unknown): string[] {
  const isLocator = schema.startsWith('LOCATOR');
  if (isLocator) locator ??= validators('Locator', ['LOCATORRequestWrapper', 'LOCATORResponseWrapper']);
  else
    shipping ??= validators('Shipping', [
      'SHIPRequestWrapper',
      'SHIPResponseWrapper',
      'VOIDSHIPMENTResponseWrapper',
      'LABELRECOVERYRequestWrapper',
      'LABELRECOVERYResponseWrapper',
      'ErrorResponse',
    ]);
  const validate = (isLocator ? locator : shipping)![schema];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e: ErrorObject) => `${e.instancePath || '/'}: ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}
