import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import client from 'prom-client';
import { RequestDurations } from './request-durations.js';

/**
 * How often the event loop's lag is sampled for `nodejs_eventloop_lag_*` (ms). prom-client samples every 10 ms by
 * default, on a timer of the loop: a process at rest woke 100 times a second for it alone. Every stall of 50 ms
 * or more, the lag docs/operations.md tells to act on, still covers a sample; shorter ones are caught in
 * proportion to their length (docs/decisions.md).
 */
export const EVENT_LOOP_SAMPLE_MS = 50;

/**
 * Prometheus metrics: request durations by route and status, plus the process defaults. Answers the durations,
 * for requests answered before routing (src/http/kept-answers.ts) to be counted with their route's.
 */
export function registerMetrics(app: FastifyInstance): RequestDurations {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  const duration = new RequestDurations(
    'waybill_http_request_duration_seconds',
    'HTTP request duration by route and status',
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
  );
  duration.registerIn(registry);
  // Read when scraped: nothing is counted per request beyond the cache's own two numbers.
  const renderCache = () => app.context.shipmentReader.cache.usage;
  new client.Gauge({
    name: 'waybill_render_cache_bytes',
    help: 'Memory held by shipments rendered as JSON (WAYBILL_RENDER_CACHE_MB)',
    registers: [registry],
    collect() {
      this.set(renderCache().bytes);
    },
  });
  new client.Counter({
    name: 'waybill_render_cache_requests_total',
    help: 'Shipment renderings answered from the cache (result="hit") or made anew (result="miss")',
    labelNames: ['result'],
    registers: [registry],
    collect() {
      const { hits, misses } = renderCache();
      this.reset();
      this.inc({ result: 'hit' }, hits);
      this.inc({ result: 'miss' }, misses);
    },
  });
  new client.Counter({
    name: 'waybill_render_cache_events_reused_total',
    help: 'Shipments rendered anew (for an update) with the events of their kept rendering, not read again',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(renderCache().eventsReused);
    },
  });
  new client.Counter({
    name: 'waybill_shipment_heads_unread_total',
    help: 'Shipment details found without a read, nothing having changed the shipment since it was last read',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(app.context.shipmentReader.headsUnread);
    },
  });
  new client.Counter({
    name: 'waybill_list_first_pages_unread_total',
    help: 'First list pages found without a read, nothing having changed them since they were last read',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(app.context.shipmentReader.firstPagesUnread);
    },
  });
  // The embedded database's commit window, as this process was started: `serve --workers N` gives its processes 0
  // unless told otherwise.
  const commitWindowMs = app.context.database.commitWindowMs;
  if (commitWindowMs !== null) {
    new client.Gauge({
      name: 'waybill_sqlite_commit_window_seconds',
      help: 'How long a commit on the embedded database may wait for more writes to share it (WAYBILL_SQLITE_COMMIT_WINDOW_MS)',
      registers: [registry],
    }).set(commitWindowMs / 1000);
  }
  // The embedded database's group commit: how many transactions share a commit (statements run on their own are
  // not counted).
  if (app.context.database.commitCounts()) {
    new client.Counter({
      name: 'waybill_sqlite_transactions_total',
      help: 'Transactions committed on the embedded database, alone or sharing one commit with others',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(app.context.database.commitCounts()?.transactions ?? 0);
      },
    });
    new client.Counter({
      name: 'waybill_sqlite_commits_total',
      help: 'Commits of transactions on the embedded database (each holds one transaction or several)',
      registers: [registry],
      collect() {
        this.reset();
        this.inc(app.context.database.commitCounts()?.commits ?? 0);
      },
    });
  }
  // Each route observes under its own path, known when it is added: `request.routeOptions` builds an object of
  // every route option each time it is read. Requests no route matched are observed here.
  app.addHook('onRoute', (route) => {
    const url = route.url;
    const observe = (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      duration.observe(request.method, url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), observe] as RouteOptions['onResponse'];
  });
  app.addHook('onResponse', (request, reply, done) => {
    if (request.is404) duration.observe(request.method, 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  // Carrier calls are counted by the carriers' toolkit, in its own registry, and exposed here with the rest.
  const exposed = client.Registry.merge([registry, app.context.carrierKit.metrics.registry]);
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.type(exposed.contentType);
    return exposed.metrics();
  });
  return duration;
}
