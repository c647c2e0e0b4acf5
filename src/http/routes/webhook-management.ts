import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, type TObject, type TSchema, Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { WebhookEndpointsService } from '../../domain/webhooks/webhook-endpoints.service.js';
import {
  DeliveryAttempt,
  WebhookCreateBody,
  WebhookEndpoint,
  WebhookUpdateBody,
  WebhookUuidParams,
  WebhookWithSecret,
} from '../../schemas/webhooks.schemas.js';

/** Path parameters arrive as strings; `params` (the mount's schema) says which there are. */
type PathParams = Readonly<Record<string, string>>;

/**
 * The webhook endpoints of one account, mounted twice: for operators under the admin API (plain JSON) and
 * for merchants under /v5/webhooks/ (the envelope). `accountOf` says whose endpoints a request manages;
 * `wrap` shapes the answer.
 */
export function webhookManagementRoutes(
  app: Parameters<FastifyPluginAsyncTypebox>[0],
  options: {
    base: string;
    /** The path parameters that name the account (none under /v5/webhooks/, where the caller is the account). */
    params: TObject;
    accountOf: (request: FastifyRequest, params: PathParams) => Promise<number>;
    /** The response schema around a record (the envelope, or nothing). */
    wrap: (schema: TSchema) => TSchema;
    envelope: (data: unknown) => unknown;
    schema: Record<string, unknown>;
    errors: Record<number, unknown>;
    service: WebhookEndpointsService;
  },
): void {
  const { base, accountOf, wrap, envelope, service } = options;
  const withId = Type.Object({ ...options.params.properties, ...WebhookUuidParams.properties });
  type OfAccount = { Params: PathParams };
  type OfEndpoint = { Params: PathParams & Static<typeof WebhookUuidParams> };
  const s = (extra: Record<string, unknown>) => ({ schema: { ...options.schema, ...extra } });
  // These answers carry the new secret: a replay of one under its Idempotency-Key is stored encrypted.
  const withSecret = (extra: Record<string, unknown>) => ({ ...s(extra), config: { sealReplay: true } });

  app.post<OfAccount & { Body: Static<typeof WebhookCreateBody> }>(
    `${base}`,
    withSecret({ params: options.params, body: WebhookCreateBody, response: { 201: wrap(WebhookWithSecret), ...options.errors } }),
    async (request, reply) => reply.code(201).send(envelope(await service.create(await accountOf(request, request.params), request.body))),
  );
  app.get<OfAccount>(
    `${base}`,
    s({ params: options.params, response: { 200: wrap(Type.Array(WebhookEndpoint)), ...options.errors } }),
    async (request) => envelope(await service.list(await accountOf(request, request.params))),
  );
  app.get<OfEndpoint>(
    `${base}:webhook_uuid/`,
    s({ params: withId, response: { 200: wrap(WebhookEndpoint), ...options.errors } }),
    async (request) => envelope(await service.get(await accountOf(request, request.params), request.params.webhook_uuid)),
  );
  app.patch<OfEndpoint & { Body: Static<typeof WebhookUpdateBody> }>(
    `${base}:webhook_uuid/`,
    s({ params: withId, body: WebhookUpdateBody, response: { 200: wrap(WebhookEndpoint), ...options.errors } }),
    async (request) => envelope(await service.update(await accountOf(request, request.params), request.params.webhook_uuid, request.body)),
  );
  app.delete<OfEndpoint>(
    `${base}:webhook_uuid/`,
    s({ params: withId, response: { 204: Type.Null(), ...options.errors } }),
    async (request, reply) => {
      await service.remove(await accountOf(request, request.params), request.params.webhook_uuid);
      return reply.code(204).send();
    },
  );
  app.post<OfEndpoint>(
    `${base}:webhook_uuid/rotate-secret/`,
    withSecret({ params: withId, response: { 200: wrap(WebhookWithSecret), ...options.errors } }),
    async (request) => envelope(await service.rotateSecret(await accountOf(request, request.params), request.params.webhook_uuid)),
  );
  app.get<OfEndpoint>(
    `${base}:webhook_uuid/deliveries/`,
    s({ params: withId, response: { 200: wrap(Type.Array(DeliveryAttempt)), ...options.errors } }),
    async (request) => envelope(await service.deliveryLog(await accountOf(request, request.params), request.params.webhook_uuid)),
  );
}
