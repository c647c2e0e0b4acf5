import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { AnalyticsGroup, AnalyticsRow } from '../../domain/delivery/analytics.types.js';
import { DeliveryAnalyticsService, type LaneParts } from '../../domain/delivery/delivery-analytics.service.js';
import { csvCell } from '../../domain/imports/csv.js';
import { DeliveryPerformance, DeliveryPerformanceQuery, type DeliveryPerformanceRowOutput } from '../../schemas/analytics.schemas.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { callerOf } from '../auth.js';

const LANE_COLUMNS = [
  'carrier_reference',
  'carrier_id',
  'shipping_service',
  'origin_country',
  'destination_country',
  'destination_postal_prefix',
] as const;

/** The CSV columns after `key` (and the lane's parts): the JSON fields, the transit summary flattened. */
const CSV_COLUMNS = [
  'shipments',
  'accepted',
  'first_attempts',
  'delivered',
  'first_attempt_success_rate',
  'on_time_rate',
  'transit_median_working_days',
  'transit_p90_working_days',
  'transit_mean_working_days',
  'exceptions',
  'returned_to_sender',
] as const;

/** A row as the API answers it: one key, the lane's parts for lanes, no histogram (the console draws that). */
function rowOf(row: AnalyticsRow, lanes: ReadonlyMap<string, LaneParts>): DeliveryPerformanceRowOutput {
  const key = row.key[0];
  const lane = lanes.get(key);
  return {
    key,
    ...(lane
      ? {
          carrier_reference: lane.carrier_reference,
          carrier_id: lane.carrier_id,
          shipping_service: lane.shipping_service,
          origin_country: lane.origin_country,
          destination_country: lane.destination_country,
          destination_postal_prefix: lane.destination_prefix,
        }
      : {}),
    shipments: row.shipments,
    accepted: row.accepted,
    first_attempts: row.first_attempts,
    delivered: row.delivered,
    first_attempt_success_rate: row.first_attempt_success_rate,
    on_time_rate: row.on_time_rate,
    transit_working_days: row.transit_working_days,
    exceptions: row.exceptions,
    returned_to_sender: row.returned_to_sender,
  };
}

/** RFC 4180: a header line, then one line per row, CRLF after each; null as an empty cell. */
export function performanceCsv(rows: DeliveryPerformanceRowOutput[], withLane: boolean): string {
  const header = ['key', ...(withLane ? LANE_COLUMNS : []), ...CSV_COLUMNS];
  const lines = [header.join(',')];
  for (const row of rows) {
    const transit = row.transit_working_days;
    const flat: Record<(typeof CSV_COLUMNS)[number], number | null> = {
      shipments: row.shipments,
      accepted: row.accepted,
      first_attempts: row.first_attempts,
      delivered: row.delivered,
      first_attempt_success_rate: row.first_attempt_success_rate,
      on_time_rate: row.on_time_rate,
      transit_median_working_days: transit.median,
      transit_p90_working_days: transit.p90,
      transit_mean_working_days: transit.mean,
      exceptions: row.exceptions,
      returned_to_sender: row.returned_to_sender,
    };
    const cells = [
      csvCell(row.key),
      ...(withLane ? LANE_COLUMNS.map((column) => csvCell(row[column] ?? '')) : []),
      ...CSV_COLUMNS.map((column) => (flat[column] === null ? '' : String(flat[column]))),
    ];
    lines.push(cells.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * Whether `Accept` prefers CSV: it lists text/csv with a weight above zero and no JSON (application/json or a
 * wildcard) of a greater weight. Without Accept, JSON.
 */
export function acceptsCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  let csv = 0;
  let json = 0;
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(weight)) continue;
    if (type === 'text/csv') csv = Math.max(csv, weight);
    else if (type === 'application/json' || type === 'application/*' || type === '*/*') json = Math.max(json, weight);
  }
  return csv > 0 && csv >= json;
}

/** GET /v5/analytics/delivery-performance/: delivery analytics of the caller's account, as JSON or CSV. */
export const analyticsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const analytics = new DeliveryAnalyticsService(app.context.repos);
  app.get(
    '/v5/analytics/delivery-performance/',
    {
      schema: {
        tags: ['Analytics'],
        summary: 'Delivery performance by carrier, lane, destination country or week',
        description:
          'Counts, first-attempt success and on-time rates and transit times of the shipments accepted in the period ' +
          '(docs/delivery-intelligence.md, "Analytics"), summed from daily aggregates. As CSV with `format=csv` or ' +
          '`Accept: text/csv` (a header line, the transit summary flattened into transit_median_working_days, ' +
          'transit_p90_working_days and transit_mean_working_days, null as an empty cell).',
        security: bearerSecurity,
        querystring: DeliveryPerformanceQuery,
        response: {
          200: {
            description: 'The rows, as JSON in the envelope or as CSV',
            content: {
              'application/json': { schema: Envelope(DeliveryPerformance) },
              'text/csv': { schema: Type.String({ description: 'RFC 4180, UTF-8, a header line' }) },
            },
          },
          ...merchantErrors,
        },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const groupBy = (query.group_by ?? 'carrier') as AnalyticsGroup;
      const performance = await analytics.performance(callerOf(request).accountId, {
        from: query.from,
        to: query.to,
        groupBy: [groupBy],
        carrierReference: query.carrier_reference,
        shippingService: query.shipping_service,
      });
      const rows = performance.rows.map((row) => rowOf(row, performance.lanes));
      const csv = query.format === undefined ? acceptsCsv(request.headers.accept) : query.format === 'csv';
      if (csv) {
        return reply
          .type('text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="delivery-performance-${query.from}-${query.to}.csv"`)
          .send(performanceCsv(rows, groupBy === 'lane'));
      }
      return reply.type('application/json; charset=utf-8').send({
        api_response: '200',
        data: { from: query.from, to: query.to, group_by: groupBy, rows },
      });
    },
  );
};
