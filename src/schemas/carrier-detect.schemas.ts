import { Type } from '@sinclair/typebox';

/** GET /v5/carriers/detect/: the number to read. */
export const CarrierDetectQuery = Type.Object(
  {
    tracking_number: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'The tracking number; spaces and dashes are ignored and letters read as upper case',
    }),
  },
  { additionalProperties: false },
);

export const CarrierCandidate = Type.Object(
  {
    carrier_id: Type.String({ description: '6-character carrier identifier' }),
    confidence: Type.Union([Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')], {
      description:
        'high: a shape only this carrier issues, with a right check digit; medium: a right check digit on a shape others share ' +
        'in length, or a shape of its own without check digit; low: a format several carriers share (UPU S10, SSCC) or a bare length',
    }),
    format: Type.String({ description: 'The format read, e.g. ups_1z, s10, sscc', examples: ['ups_1z'] }),
    check_digit: Type.Union([Type.Literal('valid'), Type.Literal('none')], {
      description: 'valid: the format has a check digit and it matches; none: the format has no check digit',
    }),
    configured: Type.Boolean({ description: 'The account has a configuration of this carrier' }),
    carrier_references: Type.Array(Type.String(), { description: "The account's configurations of this carrier" }),
  },
  { additionalProperties: false },
);

export const CarrierDetection = Type.Object(
  {
    tracking_number: Type.String({ description: 'The number as read: without spaces and dashes, upper case' }),
    candidates: Type.Array(CarrierCandidate, { description: 'Most confident first; one entry per carrier; empty when no format fits' }),
  },
  { additionalProperties: false },
);
