import { type Static, Type } from '@sinclair/typebox';
import { NullableDescribed } from './common.js';

const date = (description: string) => Type.String({ format: 'date', description, examples: ['2026-01-01'] });

/** GET /v5/analytics/delivery-performance/: the period, one dimension, the filters and the form of the answer. */
export const DeliveryPerformanceQuery = Type.Object(
  {
    from: date('First acceptance date of the period, YYYY-MM-DD, included'),
    to: date('Last acceptance date of the period, YYYY-MM-DD, included; at most 366 days after from, counting both'),
    group_by: Type.Optional(
      Type.Union([Type.Literal('carrier'), Type.Literal('lane'), Type.Literal('destination_country'), Type.Literal('week')], {
        default: 'carrier',
        description:
          'carrier: by carrier_reference; lane: by carrier configuration, service, origin country, destination country and ' +
          '2-character destination postal prefix; destination_country; week: by the Monday of the ISO week',
      }),
    ),
    carrier_reference: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Only this carrier configuration' })),
    shipping_service: Type.Optional(
      Type.String({ minLength: 1, maxLength: 100, description: 'Only this shipping_service (compared trimmed and lower-cased)' }),
    ),
    format: Type.Optional(
      Type.Union([Type.Literal('json'), Type.Literal('csv')], {
        description: 'csv answers the rows as CSV, as `Accept: text/csv` does; takes precedence over Accept',
      }),
    ),
  },
  { additionalProperties: false },
);

export type DeliveryPerformanceQueryInput = Static<typeof DeliveryPerformanceQuery>;

const count = (description: string) => Type.Integer({ minimum: 0, description });
const share = (description: string) => NullableDescribed(Type.Number({ minimum: 0, maximum: 1, description }));
const part = (description: string) => Type.Optional(Type.String({ description: `${description} (group_by=lane only)` }));

export const DeliveryPerformanceRow = Type.Object(
  {
    key: Type.String({
      description:
        'The group: the carrier_reference, the destination country code, the Monday of the week (YYYY-MM-DD), or the lane ' +
        '(carrier_reference|carrier_id|shipping_service|origin_country|destination_country|destination_postal_prefix); ' +
        'an unknown part is empty',
    }),
    carrier_reference: part('The carrier configuration'),
    carrier_id: part('The carrier'),
    shipping_service: part('The shipping_service, trimmed and lower-cased; empty when none'),
    origin_country: part('ISO country code of the sender (or from) address; empty when unknown'),
    destination_country: part('ISO country code of the recipient (or to) address; empty when unknown'),
    destination_postal_prefix: part('First 2 letters or digits of the destination postal code; empty when unknown'),
    shipments: count('Tracked shipments (with at least one event)'),
    accepted: count('Shipments accepted by the carrier (an in_transit event)'),
    first_attempts: count('Shipments with a first delivery attempt (delivered, failed_attempt or available_for_pickup)'),
    delivered: count('Shipments delivered'),
    first_attempt_success_rate: share('First attempts that delivered ÷ first attempts; null without a first attempt'),
    on_time_rate: share(
      "First attempts on or before the end of the shipment's original delivery window ÷ first attempts with such a window; null without one",
    ),
    transit_working_days: Type.Object(
      {
        median: NullableDescribed(Type.Integer({ description: 'Working days from acceptance to first attempt: the median' })),
        p90: NullableDescribed(Type.Integer({ description: 'The 90th percentile' })),
        mean: NullableDescribed(Type.Number({ description: 'The mean, rounded to 2 decimals' })),
      },
      { additionalProperties: false, description: 'Of the first attempts of accepted shipments; null without one' },
    ),
    exceptions: count('Shipments with an exception event'),
    returned_to_sender: count('Shipments returned to the sender'),
  },
  { additionalProperties: false },
);

export type DeliveryPerformanceRowOutput = Static<typeof DeliveryPerformanceRow>;

export const DeliveryPerformance = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    group_by: Type.String(),
    rows: Type.Array(DeliveryPerformanceRow, { description: 'One per group with shipments in the period, sorted by key' }),
  },
  { additionalProperties: false },
);
