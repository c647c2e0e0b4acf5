import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AnalyticsQuery, AnalyticsRow } from '../../domain/delivery/analytics.types.js';
import { ValidationError } from '../../domain/errors.js';
import { type AnalyticsFilters, type AnalyticsView, EXCEPTION_QUEUE_SIZE, renderAnalyticsPage } from '../pages/console/analytics.html.js';
import { sendHtml, sessionOf } from './console-session.js';
import { errorLines, FormInput } from './form-input.js';

/** What the page asks of the delivery analytics service: rows by one or two dimensions, from the daily aggregates. */
export interface DeliveryAnalytics {
  rows(accountId: number, query: AnalyticsQuery): Promise<AnalyticsRow[]>;
}

/** The default period: the last 12 weeks, from the Monday 11 weeks before this week's to today. */
const DEFAULT_WEEKS = 12;
const DAY_MS = 86_400_000;

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function defaultPeriod(today: string): { from: string; to: string } {
  const day = Date.parse(`${today}T00:00:00Z`);
  const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
  return { from: isoDate(monday - (DEFAULT_WEEKS - 1) * 7 * DAY_MS), to: today };
}

function readFilters(query: unknown, today: string): { filters: AnalyticsFilters; errors: string[] } {
  const input = new FormInput(query);
  const period = defaultPeriod(today);
  const from = input.text('from', 10) ?? period.from;
  const to = input.text('to', 10) ?? period.to;
  const carrier = input.text('carrier', 100);
  // Services are kept trimmed and lower-cased (a lane's service), so the filter is too (the queue reads it as given).
  const service = input.text('service', 100)?.toLowerCase();
  // The period's rules (real dates, in order, at most a year) are the service's: its refusal is shown as the form's.
  return { filters: { from, to, carrier, service }, errors: errorLines(input.fieldErrors()) };
}

/**
 * Delivery analytics (`/console/analytics/`): the account's transit times, on-time and first-attempt rates
 * for a period of acceptance, as charts with their numbers, and the exception queue. Everything is read from
 * the delivery aggregates (the same service as `GET /v5/analytics/delivery-performance/`).
 */
export const analyticsRoutes: FastifyPluginAsyncTypebox<{ analytics: DeliveryAnalytics }> = async (app, options) => {
  const { clock, repos } = app.context;
  const { analytics } = options;

  app.get('/analytics/', async (request, reply) => {
    const session = sessionOf(request);
    const accountId = session.caller.accountId;
    const today = isoDate(clock.now().getTime());
    const { filters, errors } = readFilters(request.query, today);
    const hasData = await repos.deliveryExceptions.hasFacts(accountId);
    const page = (status: number, input: { carriers: string[]; errors: string[]; view: AnalyticsView | null }) =>
      sendHtml(reply, status, renderAnalyticsPage({ session: session.view, filters, hasData, ...input }));
    if (errors.length) return page(400, { carriers: [], errors, view: null });
    if (!hasData) return page(200, { carriers: [], errors: [], view: null });

    const period = { from: filters.from, to: filters.to };
    const narrowed = { ...period, carrierReference: filters.carrier, shippingService: filters.service };
    try {
      const [allCarriers, byCarrier, byWeek, byDestination, exceptions] = await Promise.all([
        analytics.rows(accountId, { ...period, groupBy: ['carrier'] }),
        filters.carrier || filters.service ? analytics.rows(accountId, { ...narrowed, groupBy: ['carrier'] }) : null,
        analytics.rows(accountId, { ...narrowed, groupBy: ['week', 'carrier'] }),
        analytics.rows(accountId, { ...narrowed, groupBy: ['carrier', 'destination_country'] }),
        repos.deliveryExceptions.pastWindow(accountId, today, {
          limit: EXCEPTION_QUEUE_SIZE,
          carrierReference: filters.carrier,
          shippingService: filters.service,
        }),
      ]);
      const carriers = allCarriers.map((row) => row.key[0]);
      return page(200, { carriers, errors: [], view: { byCarrier: byCarrier ?? allCarriers, byWeek, byDestination, exceptions, today } });
    } catch (error) {
      if (error instanceof ValidationError) return page(400, { carriers: [], errors: errorLines(error.errors), view: null });
      throw error;
    }
  });
};
