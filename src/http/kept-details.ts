import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { bearerToken } from './auth.js';
import { accountRateKey, countedRate, type RateDecision, type RateLimiter } from './rate-limit.js';
import type { RequestDurations } from './request-durations.js';
import { JSON_TYPE } from './shipment-reply.js';

export type RequestHandler = (request: IncomingMessage, response: ServerResponse) => void;

const ROUTE = '/v5-2-0/shipment/details/';
const PREFIX = `${ROUTE}?shipment_uuid=`;
/** A UUID as the details route's validation leaves it: lowercase, without `urn:uuid:`. */
const LOWERCASE_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * The v5.2 details of a shipment answered before routing, when the answer is already in hand: most of a merchant's
 * requests ask for a shipment nothing has changed since it was last answered, and routing, hooks and the reply
 * object cost more than the rest of such a request (docs/performance.md). The request is answered here only
 * when it is exactly `GET /v5-2-0/shipment/details/?shipment_uuid=<lowercase UUID>`, with no body and a bearer
 * token whose caller is known without a read, and the rate limit allows it; then with the same status, headers
 * and bytes as the route, counted in the same rate budget and the same duration metrics. Every other request,
 * and one whose shipment is not kept (`ShipmentReader.keptDetails`), goes to `route` as it came; a request
 * counted in the budget here carries its decision there (`countedRate`), so it is counted once.
 */
export function answerKeptDetails(
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
  const log = app.log as FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };
  return (request, response) => {
    const url = request.url as string;
    const { headers } = request;
    if (
      request.method !== 'GET' ||
      url.length !== PREFIX.length + 36 ||
      !url.startsWith(PREFIX) ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      // At debug level the router logs a line for each request (ConciseRequestLog).
      log.isLevelEnabled?.('debug')
    ) {
      return route(request, response);
    }
    const started = performance.now();
    let decision: RateDecision | undefined;
    let json: Buffer | null = null;
    try {
      const token = bearerToken(headers.authorization);
      const caller = token === null ? null : auth.authenticateCached(token);
      const uuid = url.slice(PREFIX.length);
      if (caller && LOWERCASE_UUID.test(uuid)) {
        decision = hitNow(accountRateKey(caller.accountId), perSecond);
        if (decision.allowed) json = shipmentReader.keptDetails(caller.accountId, uuid);
      }
    } catch {
      // Whatever failed here, the router answers as it would have (in the envelope, never a crash of the process).
      json = null;
    }
    if (!json || !decision) {
      if (decision) request[countedRate] = decision;
      return route(request, response);
    }
    // The route's headers, in its order: the request id (onRequest), the rate limit's, then the answer's own.
    response.writeHead(200, {
      'x-request-id': requestId(),
      'ratelimit-limit': decision.limit,
      'ratelimit-remaining': decision.remaining,
      'ratelimit-reset': decision.resetSeconds,
      'content-type': JSON_TYPE,
      'content-length': json.length,
    });
    response.end(json);
    durations.observe('GET', ROUTE, 200, (performance.now() - started) / 1000);
  };
}
