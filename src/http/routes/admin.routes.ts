import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { BookingKind } from '../../domain/carrier-configs.service.js';
import {
  Account,
  AccountCreateBody,
  AccountUpdateBody,
  AccountUuidParams,
  CarrierConfig,
  CarrierConfigCreateBody,
  CarrierConfigCreated,
  CredentialSummary,
  Credentials,
} from '../../schemas/admin.schemas.js';
import { adminSecurity } from '../../schemas/common.js';
import { requireAdmin } from '../auth.js';
import { webhookManagementRoutes } from './webhook-management.js';

const errors = { 400: Type.Ref('ErrorEnvelope'), 401: Type.Ref('ErrorEnvelope'), 404: Type.Ref('ErrorEnvelope') };
const tags = ['Admin'];

/** The operators' API: accounts, their credentials and carrier configurations. Not part of the merchant interface. */
export async function adminRoutes(app: FastifyInstance): Promise<void> {
  requireAdmin(app);
  const { accounts, carrierConfigs } = app.context;
  const schema = { tags, security: adminSecurity };

  app.post(
    '/accounts/',
    { schema: { ...schema, body: AccountCreateBody, response: { 201: Account, ...errors } } },
    async (request, reply) => {
      const body = request.body as { name: string; features?: string[]; strict_fields?: boolean };
      return reply.code(201).send(await accounts.create(body));
    },
  );

  app.get('/accounts/', { schema: { ...schema, response: { 200: Type.Array(Account), ...errors } } }, async () => accounts.list());

  app.get(
    '/accounts/:account_uuid/',
    { schema: { ...schema, params: AccountUuidParams, response: { 200: Account, ...errors } } },
    async (request) => accounts.get((request.params as { account_uuid: string }).account_uuid),
  );

  app.patch(
    '/accounts/:account_uuid/',
    { schema: { ...schema, params: AccountUuidParams, body: AccountUpdateBody, response: { 200: Account, ...errors } } },
    async (request) =>
      accounts.update(
        (request.params as { account_uuid: string }).account_uuid,
        request.body as { name?: string; features?: string[]; strict_fields?: boolean },
      ),
  );

  app.post(
    '/accounts/:account_uuid/credentials/',
    { schema: { ...schema, params: AccountUuidParams, response: { 201: Credentials, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await accounts.createCredentials((request.params as { account_uuid: string }).account_uuid));
    },
  );

  app.get(
    '/accounts/:account_uuid/credentials/',
    { schema: { ...schema, params: AccountUuidParams, response: { 200: Type.Array(CredentialSummary), ...errors } } },
    async (request) => accounts.listCredentials((request.params as { account_uuid: string }).account_uuid),
  );

  app.delete(
    '/accounts/:account_uuid/credentials/:client_id/',
    {
      schema: {
        ...schema,
        params: Type.Object({ account_uuid: Type.String({ format: 'uuid' }), client_id: Type.String({ maxLength: 100 }) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const params = request.params as { account_uuid: string; client_id: string };
      await accounts.revokeCredentials(params.account_uuid, params.client_id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/accounts/:account_uuid/carrier-configs/',
    {
      schema: {
        ...schema,
        params: AccountUuidParams,
        body: CarrierConfigCreateBody,
        response: { 201: CarrierConfigCreated, ...errors, 409: Type.Ref('ErrorEnvelope') },
      },
    },
    async (request, reply) => {
      const account = await accounts.require((request.params as { account_uuid: string }).account_uuid);
      const body = request.body as {
        carrier_reference: string;
        carrier_id: string;
        booking?: BookingKind[];
        settings?: Record<string, unknown>;
      };
      const created = await carrierConfigs.add(account.id, body);
      // A carrier that pushes updates gets its token now, shown this once.
      const push = await app.context.carrierPush.issueToken(account.id, body.carrier_reference, body.carrier_id);
      return reply.code(201).send({ ...created, ...(push ?? {}) });
    },
  );

  app.get(
    '/accounts/:account_uuid/carrier-configs/',
    { schema: { ...schema, params: AccountUuidParams, response: { 200: Type.Array(CarrierConfig), ...errors } } },
    async (request) => {
      const account = await accounts.require((request.params as { account_uuid: string }).account_uuid);
      return carrierConfigs.list(account.id);
    },
  );

  app.delete(
    '/accounts/:account_uuid/carrier-configs/:carrier_reference/',
    {
      schema: {
        ...schema,
        params: Type.Object({ account_uuid: Type.String({ format: 'uuid' }), carrier_reference: Type.String({ maxLength: 50 }) }),
        response: { 204: Type.Null(), ...errors },
      },
    },
    async (request, reply) => {
      const params = request.params as { account_uuid: string; carrier_reference: string };
      const account = await accounts.require(params.account_uuid);
      await carrierConfigs.remove(account.id, params.carrier_reference);
      return reply.code(204).send();
    },
  );

  webhookManagementRoutes(app, {
    base: '/accounts/:account_uuid/webhooks/',
    params: AccountUuidParams,
    accountOf: async (request) => (await accounts.require((request.params as { account_uuid: string }).account_uuid)).id,
    wrap: (schema) => schema,
    envelope: (data) => data,
    schema,
    errors,
    service: app.context.webhookEndpoints,
  });
}
