import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { canonicalJson, sha256 } from '../domain/replays.js';

const KEPT_MS = 24 * 60 * 60_000;
const SCOPE = 'idempotency-key';
/** Starts a stored response kept encrypted; a JSON answer never starts so. */
const SEALED = 'sealed:';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
  interface FastifyContextConfig {
    /** The route's answer carries a secret: its stored copy is encrypted at rest, like the secret itself. */
    sealReplay?: boolean;
  }
}

/**
 * `Idempotency-Key` on every POST of this scope: the same key with the same request within 24 hours gets
 * the stored response again; with a different request, 409. Responses of 5xx and those with Retry-After are
 * not kept, so a retry after a failure runs again. Answers of routes marked `sealReplay` (a new webhook
 * secret) are stored encrypted and decrypted for the replay, so the table never holds the secret in clear.
 */
export function acceptIdempotencyKeys(app: FastifyInstance): void {
  const { repos, secrets } = app.context;
  app.decorateRequest('idempotencyKey', null);

  const claim = (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    // Most requests carry no key: let them through without a promise.
    if (request.method !== 'POST' || request.headers['idempotency-key'] === undefined || !request.caller) return done();
    claimOrReplay(request, reply).then(() => done(), done);
  };

  const claimOrReplay = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = request.headers['idempotency-key'];
    if (!request.caller) return;
    if (typeof key !== 'string' || key.length < 1 || key.length > 255) {
      return reply.code(400).send({ api_response: '4000', message: 'Idempotency-Key must be 1 to 255 characters' });
    }
    const now = app.context.clock.now();
    const hash = sha256(`${request.routeOptions.url}\n${canonicalJson(request.query)}\n${canonicalJson(request.body)}`);
    const claim = {
      account_id: request.caller.accountId,
      scope: SCOPE,
      replay_key: key,
      request_hash: hash,
      created_at: now.toISOString(),
      // How long a first request may run before a retry with its key may take over (after a crash, say).
      expires_at: new Date(now.getTime() + app.context.config.idempotencyLeaseMs).toISOString(),
    };
    // Between a refused claim and the look-up, the holder may release the key (its answer was not an
    // outcome): then claim again rather than mistake the missing entry for another request's.
    let stored: Awaited<ReturnType<typeof repos.replays.find>>;
    for (let round = 0; ; round++) {
      if (await repos.replays.claim(claim)) {
        request.idempotencyKey = key;
        return;
      }
      stored = await repos.replays.find(request.caller.accountId, SCOPE, key);
      if (stored || round === 2) break;
    }
    if (!stored) return inProgress(reply);
    if (stored.request_hash !== hash) {
      return reply.code(409).send({
        api_response: '4090',
        message: 'Idempotency-Key was already used with a different request; use a new key for a new request',
      });
    }
    if (stored.response === null) return inProgress(reply);
    const response = stored.response.startsWith(SEALED) ? unseal(stored.response.slice(SEALED.length)) : stored.response;
    if (response === null) {
      return reply.code(409).send({
        api_response: '4090',
        message: "Idempotency-Key's stored answer can no longer be read (the service's secret key changed); use a new key",
      });
    }
    reply.header('idempotent-replayed', 'true');
    return reply
      .code(stored.status_code ?? 200)
      .type('application/json; charset=utf-8')
      .send(response);
  };

  /** A sealed answer opened, or null when it cannot be (sealed under another WAYBILL_SECRET_KEY). */
  const unseal = (sealed: string): string | null => {
    try {
      return secrets.decrypt(sealed);
    } catch {
      return null;
    }
  };

  const answered = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: (error: Error | null, payload?: unknown) => void,
  ) => {
    // Most requests carry no key: answer them without a promise.
    if (!request.idempotencyKey || !request.caller) return done(null, payload);
    settle(request, reply, payload).then((result) => done(null, result), done);
  };

  // Only POST routes take a key: the hooks are theirs alone, so that other requests do not run through them.
  // They run first among a route's own hooks, as hooks of the scope would.
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.includes('POST')) return;
    route.preHandler = [claim, ...[route.preHandler ?? []].flat()] as RouteOptions['preHandler'];
    route.onSend = [answered, ...[route.onSend ?? []].flat()] as RouteOptions['onSend'];
  });

  const settle = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const key = request.idempotencyKey as string;
    if (!request.caller) return payload;
    request.idempotencyKey = null;
    // A 5xx, or an answer with Retry-After (a passing state, e.g. a booking still in progress), is not the
    // request's outcome: a retry with the key runs again.
    if (reply.statusCode >= 500 || reply.hasHeader('retry-after')) {
      await repos.replays.release(request.caller.accountId, SCOPE, key);
    } else {
      const now = app.context.clock.now();
      const answer = String(payload);
      await repos.replays.complete(
        request.caller.accountId,
        SCOPE,
        key,
        reply.statusCode,
        request.routeOptions.config?.sealReplay ? `${SEALED}${secrets.encrypt(answer)}` : answer,
        new Date(now.getTime() + KEPT_MS).toISOString(),
      );
    }
    return payload;
  };
}

/** The key is held by an attempt still running (or by one a crash cut off, until its lease ends). */
function inProgress(reply: FastifyReply): FastifyReply {
  return reply
    .code(409)
    .header('retry-after', '1')
    .send({ api_response: '4090', message: 'A request with this Idempotency-Key is still being processed; retry later' });
}
