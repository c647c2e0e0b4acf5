import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Query parameters that carry a credential: the signature of a signed label or proof-of-delivery link, and the push
 * token of a carrier hook URL (carriers that can be given only a URL carry it there).
 */
const SECRET_PARAMS = new Set(['signature', 'sig', 'push_token']);
/** The tracking page's path: its reference is the only authority needed to read the page. */
const TRACKING_PAGE = /^\/+(?:t|%74)\/[^?#]*/i;

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/**
 * A request URL as it may be logged: a signed link's signature and a tracking page's reference replaced by
 * `[redacted]`. Parameter names are compared decoded, as the query parser reads them (`sig%6Eature` too).
 */
export function redactUrl(url: string): string {
  const path = url.replace(TRACKING_PAGE, '/t/[redacted]');
  const question = path.indexOf('?');
  if (question < 0) return path;
  const query = path
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq < 0 ? pair : pair.slice(0, eq);
      return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path.slice(0, question + 1)}${query}`;
}

/** Fastify's `req` log serializer with the URL redacted. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** Logger options with the redacting `req` serializer added (a `false` or `true` logger is left as it is). */
export function withRedactedUrls(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (typeof logger !== 'object' || logger === null) return logger;
  return { ...logger, serializers: { ...logger.serializers, req: serializeRequest } };
}
