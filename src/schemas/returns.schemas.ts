import { Type } from '@sinclair/typebox';
import { RETURN_STATUSES } from '../core/return-status.js';
import { Nullable } from './common.js';
import { MAX_AMOUNT } from './line-item.schemas.js';
import { ShipmentCreateBody } from './shipment-input.schemas.js';
import { ShipmentCreated } from './shipment-output.schemas.js';

export const REFUND_METHODS = ['original_payment', 'store_credit', 'exchange'] as const;
export const RETURN_METHODS = ['drop_off', 'pick_up', 'send_by_consumer', 'return_to_store'] as const;

const literalUnion = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));
const decimal = () =>
  Type.Union(
    [
      // As large as the decimal string may write it: a larger number is shown in exponent notation (`1e+300`).
      Type.Number({ minimum: 0, maximum: MAX_AMOUNT }),
      Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,4})?$', maxLength: 17 }),
      Type.Null(),
    ],
    { description: 'An amount ≥ 0, as a number or a decimal string' },
  );

export const ReturnTicketInput = Type.Object(
  {
    return_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 50, description: 'Your return id (usable as RMA); unique in the account' }),
    ),
    comment: Type.Optional(Type.String({ maxLength: 2000 })),
    refund_method: Type.Optional(literalUnion(REFUND_METHODS)),
    return_method: Type.Optional(literalUnion(RETURN_METHODS)),
    total_refund_amount: Type.Optional(decimal()),
  },
  { additionalProperties: false },
);

export const ReturnCreateBody = Type.Object(
  {
    return_ticket: Type.Optional(ReturnTicketInput),
    shipment: ShipmentCreateBody,
  },
  { additionalProperties: false },
);

const ReturnProofInput = Type.Object(
  {
    url: Type.String({ format: 'web-url', maxLength: 1024, description: 'http or https' }),
    file_name: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);

export const ReturnUpdateBody = Type.Object(
  {
    return_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    return_id: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    return_status: Type.Optional(literalUnion(RETURN_STATUSES)),
    refund_method: Type.Optional(Nullable(literalUnion(REFUND_METHODS))),
    return_method: Type.Optional(Nullable(literalUnion(RETURN_METHODS))),
    total_refund_amount: Type.Optional(decimal()),
    reject_reason: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1000 }))),
    comment: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    internal_notes: Type.Optional(Nullable(Type.String({ maxLength: 5000 }))),
    approver_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    cost_of_return: Type.Optional(decimal()),
    additional_cost: Type.Optional(decimal()),
    return_proofs: Type.Optional(Type.Array(ReturnProofInput, { maxItems: 20 })),
    refund_issued: Type.Optional(
      Type.Boolean({
        description:
          '`true` records that you issued the refund, at the time of the request (`refund_issued_at`): once per return, for a ' +
          'return that is (or this update makes) approved, carrier booking pending, shipping, completed or inactive. ' +
          "Sends `return.updated` and the consumer's `refund_issued` message.",
      }),
    ),
    refunded_amount: Type.Optional(
      Type.Union([Type.Number({ minimum: 0 }), Type.String({ pattern: '^[0-9]{1,12}(\\.[0-9]{1,4})?$', maxLength: 17 })], {
        description: 'The amount refunded (> 0), with refund_issued: true; the ticket’s total_refund_amount when left out',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ReturnTicket = Type.Object({
  return_uuid: Type.String({ format: 'uuid' }),
  return_id: Nullable(Type.String()),
  return_status: Type.String(),
  requested_date: Nullable(Type.String()),
  created_date: Type.String(),
  updated_date: Type.String(),
});

export const ReturnCreated = Type.Object({ shipment: ShipmentCreated, return_ticket: ReturnTicket });

/** The update endpoint's answer: the ticket with every ReturnsInfo field. */
export const ReturnTicketFull = Type.Object({
  ...ReturnTicket.properties,
  shipment_uuid: Type.String({ format: 'uuid' }),
  order_id: Nullable(Type.String()),
  total_refund_amount: Nullable(Type.String()),
  refund_is_calculated: Type.Boolean(),
  comment: Nullable(Type.String()),
  return_proofs: Type.Array(Type.Object({ url: Type.String(), file_name: Nullable(Type.String()) })),
  reject_reason: Nullable(Type.String()),
  refund_method: Nullable(Type.String()),
  return_method: Nullable(Type.String()),
  cost_of_return: Nullable(Type.String()),
  cost_is_calculated: Type.Boolean(),
  additional_cost: Nullable(Type.String()),
  internal_notes: Nullable(Type.String()),
  approver_email: Nullable(Type.String()),
  booking_id: Nullable(Type.String()),
  refund_issued_at: Nullable(Type.String({ description: 'When the refund was recorded as issued; null before' })),
  refunded_amount: Nullable(Type.String({ description: 'The amount refunded, recorded with it' })),
});
