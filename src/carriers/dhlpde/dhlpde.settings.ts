import { Type } from '@sinclair/typebox';
import { CredentialText, EnvironmentSetting, PollIntervalSetting, secret } from '../sdk/settings.js';
import { PARCEL_DE_PRODUCTS } from './dhlpde.products.js';

/**
 * A billing number (Abrechnungsnummer): the 10-digit EKP, the 2-digit procedure of the product, and the
 * 2-character participation (digits, rarely letters), as the Shipping API's `billingNumber` pattern allows.
 */
export const BILLING_NUMBER_PATTERN = '^[0-9]{12}[A-Za-z0-9]{2}$';

/** The print formats the Shipping API accepts for `printFormat` and `retourePrintFormat`. */
export const PRINT_FORMATS = [
  'A4',
  '910-300-600',
  '910-300-610',
  '910-300-700',
  '910-300-700-oz',
  '910-300-710',
  '910-300-300',
  '910-300-300-oz',
  '910-300-400',
  '910-300-410',
  '100x70mm',
] as const;

const billingNumber = (description: string) => Type.String({ pattern: BILLING_NUMBER_PATTERN, description });

const productCodes = PARCEL_DE_PRODUCTS.filter((p) => p.types.includes('outbound')).map((p) => p.code);

/** The settings of a DHL Parcel DE configuration. docs/carriers/dhlpde.md explains each one. */
export const parcelDeSettingsSchema = Type.Object({
  environment: EnvironmentSetting,
  // Required, but the operator's WAYBILL_CARRIER_DHLPDE_API_KEY / _API_SECRET count: the app usually belongs to
  // the deployment, the business customer account to the merchant.
  api_key: secret(
    CredentialText(
      'API key (client id) of a developer.dhl.com app with "Parcel DE Shipping" (and "Shipment Tracking - Unified", ' +
        '"Location Finder - Unified" for tracking and pick-up points). Leave it out to use the key this deployment provides.',
    ),
  ),
  api_secret: secret(CredentialText('API secret (client secret) of that app. Leave it out to use the one this deployment provides.')),
  username: CredentialText('User of the DHL business customer portal (GKP) with the right to ship'),
  password: secret(CredentialText('Password of that portal user')),
  billing_numbers: Type.Optional(
    Type.Object(Object.fromEntries(productCodes.map((code) => [code, Type.Optional(billingNumber(`Billing number for ${code}`))])), {
      additionalProperties: false,
      description: 'Billing number (14 characters: EKP, procedure, participation) per product, e.g. {"V01PAK": "33333333330102"}',
    }),
  ),
  return_billing_number: Type.Optional(
    billingNumber('Billing number of DHL Retoure (procedure 07), for a return label added to an outbound parcel'),
  ),
  return_receiver_id: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 30,
      pattern: '^\\S+$',
      description: 'Receiver id of the return recipient set up in the business customer portal (Returns API), e.g. "deu"',
    }),
  ),
  return_receiver_ids: Type.Optional(
    Type.Record(Type.String({ pattern: '^[A-Z]{2}$' }), Type.String({ minLength: 1, maxLength: 30, pattern: '^\\S+$' }), {
      description: 'Receiver id per country the return is sent from (ISO alpha-2), e.g. {"AT": "aut"}; return_receiver_id otherwise',
    }),
  ),
  profile: Type.Optional(
    Type.String({ minLength: 1, maxLength: 35, description: 'User group profile of the portal user (default STANDARD_GRUPPENPROFIL)' }),
  ),
  label_format: Type.Optional(Type.Union([Type.Literal('pdf'), Type.Literal('zpl')], { description: 'pdf (default) or zpl' })),
  print_format: Type.Optional(
    Type.Unsafe<(typeof PRINT_FORMATS)[number]>({
      type: 'string',
      enum: [...PRINT_FORMATS],
      description: 'Label size (printFormat); the portal account setting when absent',
    }),
  ),
  must_encode: Type.Optional(
    Type.Boolean({ description: 'Refuse German recipient addresses DHL cannot encode instead of printing them with a warning' }),
  ),
  poll_interval_seconds: PollIntervalSetting,
});

export const DEFAULT_PROFILE = 'STANDARD_GRUPPENPROFIL';
