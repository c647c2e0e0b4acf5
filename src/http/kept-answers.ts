import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { ShipmentPage } from '../domain/shipments/rendered-shipment.js';
import { bearerToken } from './auth.js';
import { KeptPageAnswers } from './kept-page-answers.js';
import { accountRateKey, countedRate, type RateDecision, type RateLimiter } from './rate-limit.js';
import type { RequestDurations } from './request-durations.js';
import { JSON_TYPE, shipmentPageAnswer } from './shipment-reply.js';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const DETAILS_ROUTE = '/v5-2-0/shipment/details/';
const DETAILS_PREFIX = `${DETAILS_ROUTE}?shipment_uuid=`;
/** A UUID as the details route's validation leaves it: lowercase, without `urn:uuid:`. */
const LOWERCASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const LIST_ROUTE = '/v5/shipment/list/';
const LIST_LIMIT_PREFIX = `${LIST_ROUTE}?limit=`;
/** The list route's default page size (ShipmentListQuery). */
const DEFAULT_LIMIT = 20;
/** A page size the list route takes, written as the route's validation reads it back: 1 to 100, no leading zero. */
const CANONICAL_LIMIT = /^(?:[1-9]\d?|100)$/;

/** What a request asks for that may be answered before routing, read from its URL alone. */
type Kept = { kind: 'details'; uuid: string } | { kind: 'list'; limit: number };

/**
 * The request's URL as one of the two asked for most (docs/performance.md): exactly
 * `/v5-2-0/shipment/details/?shipment_uuid=<lowercase UUID>`, or the list's first page without filters,
 * `/v5/shipment/list/` with no query or with `?limit=<1 to 100>` alone. null for anything else.
 */
function keptRequest(url: string): Kept | null {
  if (url.length === DETAILS_PREFIX.length + 36 && url.startsWith(DETAILS_PREFIX)) {
    const uuid = url.slice(DETAILS_PREFIX.length);
    return LOWERCASE_UUID.test(uuid) ? { kind: 'details', uuid } : null;
  }
  if (url === LIST_ROUTE) return { kind: 'list', limit: DEFAULT_LIMIT };
  if (url.startsWith(LIST_LIMIT_PREFIX)) {
    const limit = url.slice(LIST_LIMIT_PREFIX.length);
    return CANONICAL_LIMIT.test(limit) ? { kind: 'list', limit: Number(limit) } : null;
  }
  return null;
}

/**
 * The two requests a merchant sends most, answered before routing when the answer is already in hand: the v5.2
 * details of a shipment nothing has changed since it was last answered, and the first page of the list whose
 * shipments are all kept. Routing, hooks and the reply object cost about as much as the rest of such a request
 * (docs/performance.md). A request is answered here only when its URL is exactly one of those (`keptRequest`), it is
 * a GET with no body and a bearer token whose caller is known without a read, and the rate limit allows it; then
 * with the same status, headers and bytes as the route, counted in the same rate budget and the same duration
 * metrics. Every other request, and one whose answer is not kept (`ShipmentReader.keptDetails`, `keptFirstPage`),
 * goes to `route` as it came; a request counted in the budget here carries its decision there (`countedRate`), so
 * it is counted once.
 */
export function answerKept(
  app: FastifyInstance,
  options: {
    route: RequestHandler;
    limiter: RateLimiter;
    durations: RequestDurations;
    requestId: () => string;
  },
): RequestHandler {
  const { route, limiter, durations, requestId } = options;
  const { auth, shipmentReader, config } = app.context;
  const hitNow = limiter.hitNow?.bind(limiter);
  // Every request is routed when the rate limit is counted elsewhere (Redis: a promise per request) or when HTTPS
  // is required (the router refuses plain HTTP).
  if (!hitNow || config.requireHttps) return route;
  const perSecond = config.rateLimitPerSecond;
  const pageAnswers = new KeptPageAnswers();
  const log = app.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

  /** The route's headers, in its order: the request id (onRequest), the rate limit's, then the answer's own. */
  const send = (response: ServerResponse, decision: RateDecision, json: Buffer, routePath: string, started: number) => {
    response.writeHead(200, {
      'x-request-id': requestId(),
      'ratelimit-limit': decision.limit,
      'ratelimit-remaining': decision.remaining,
      'ratelimit-reset': decision.resetSeconds,
      'content-type': JSON_TYPE,
      'content-length': json.length,
    });
    response.end(json);
    durations.observe('GET', routePath, 200, (performance.now() - started) / 1000);
  };
  const toRoute = (request: IncomingMessage, response: ServerResponse, decision: RateDecision | undefined) => {
    if (decision) request[countedRate] = decision;
    route(request, response);
  };
  const sendPage = (
    request: IncomingMessage,
    response: ServerResponse,
    decision: RateDecision,
    page: ShipmentPage | null,
    key: string,
    started: number,
  ) => {
    if (!page) return toRoute(request, response, decision);
    let json: Buffer;
    try {
      json = pageAnswers.answer(key, page) ?? shipmentPageAnswer(response, page);
    } catch {
      return toRoute(request, response, decision);
    }
    send(response, decision, json, LIST_ROUTE, started);
  };

  return (request, response) => {
    const { headers } = request;
    const kept =
      request.method === 'GET' &&
      headers['content-length'] === undefined &&
      headers['transfer-encoding'] === undefined &&
      // At debug level the router logs a line for each request (ConciseRequestLog).
      !log.isLevelEnabled?.('debug')
        ? keptRequest(request.url as string)
        : null;
    if (!kept) return route(request, response);
    const started = performance.now();
    let decision: RateDecision | undefined;
    let details: Buffer | null = null;
    let page: Promise<ShipmentPage | null> | null = null;
    let pageKey = '';
    try {
      const token = bearerToken(headers.authorization);
      const caller = token === null ? null : auth.authenticateCached(token);
      if (caller) {
        decision = hitNow(accountRateKey(caller.accountId), perSecond);
        if (decision.allowed) {
          if (kept.kind === 'details') details = shipmentReader.keptDetails(caller.accountId, kept.uuid);
          else {
            page = shipmentReader.keptFirstPage(caller.accountId, kept.limit);
            pageKey = `${caller.accountId}:${kept.limit}`;
          }
        }
      }
    } catch {
      // Whatever failed here, the router answers as it would have (in the envelope, never a crash of the process).
      details = null;
      page = null;
    }
    if (decision && details) return send(response, decision, details, DETAILS_ROUTE, started);
    if (decision && page) {
      const counted = decision;
      // A page whose stamps could not be read (an empty page, a failed read) is the router's to answer.
      page
        .then(
          (answer) => sendPage(request, response, counted, answer, pageKey, started),
          () => toRoute(request, response, counted),
        )
        .catch((error: unknown) => {
          // Neither the answer nor the router could take the request: it is cut off, the process goes on.
          log.error({ err: error, url: request.url }, 'a request answered before routing failed');
          response.destroy();
        });
      return;
    }
    toRoute(request, response, decision);
  };
}
