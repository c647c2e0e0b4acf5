import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { carrierCatalogue } from '../../carriers/catalogue.js';
import { SimulatedHistories } from '../../domain/delivery/simulated-histories.service.js';
import {
  Account,
  AccountCreateBody,
  AccountUpdateBody,
  AccountUuidParams,
  CarrierCatalogueEntry,
  CarrierConfig,
  CarrierConfigCreateBody,
  CarrierConfigCreated,
  CarrierConfigPatchBody,
  CredentialSummary,
  Credentials,
} from '../../schemas/admin.schemas.js';
import { adminSecurity } from '../../schemas/common.js';
import { SimulatedHistoryBody, SimulatedHistoryCreated, SimulatedHistoryDeleted } from '../../schemas/simulation.schemas.js';
import { requireAdmin } from '../auth.js';
import { webhookManagementRoutes } from './webhook-management.js';

const errors = { 400: Type.Ref('ErrorEnvelope'), 401: Type.Ref('ErrorEnvelope'), 404: Type.Ref('ErrorEnvelope') };
const tags = ['Admin'];

/** The operators' API: accounts, their credentials and carrier configurations. Not part of the merchant interface. */
export const adminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  requireAdmin(app);
  const { accounts, carrierConfigs } = app.context;
  const schema = { tags, security: adminSecurity };

  app.post(
    '/accounts/',
    { schema: { ...schema, body: AccountCreateBody, response: { 201: Account, ...errors } } },
    async (request, reply) => {
      return reply.code(201).send(await accounts.create(request.body));
    },
  );

  app.get('/accounts/', { schema: { ...schema, response: { 200: Type.Array(Account), ...errors } } }, async () => accounts.list());

  app.get(
    '/accounts/:account_uuid/',
    { schema: { ...schema, params: AccountUuidParams, response: { 200: Account, ...errors } } },
    async (request) => accounts.get(request.params.account_uuid),
  );

  app.patch(
    '/accounts/:account_uuid/',
    { schema: { ...schema, params: AccountUuidParams, body: AccountUpdateBody, response: { 200: Account, ...errors } } },
    async (request) => accounts.update(request.params.account_uuid, request.body),
  );

  app.post(
    '/accounts/:account_uuid/credentials/',
    { schema: { ...schema, params: AccountUuidParams, response: { 201: Credentials, ...errors } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(201).send(await accounts.createCredentials(request.params.account_uuid));
    },
  );

  app.get(
    '/accounts/:account_uuid/credentials/',
    { schema: { ...schema, params: AccountUuidParams, response: { 200: Type.Array(CredentialSummary), ...errors } } },
    async (request) => accounts.listCredentials(request.params.account_uuid),
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
      await accounts.revokeCredentials(request.params.account_uuid, request.params.client_id);
      // Sent empty: the typed reply of a 204 wants null, which would be serialized as a body.
      reply.code(204);
      return reply.send();
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
      const account = await accounts.require(request.params.account_uuid);
      const { body } = request;
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
      const account = await accounts.require(request.params.account_uuid);
      // The operator's view is always read from the database; merchants' may be a few seconds old (list).
      return carrierConfigs.list(account.id, { fresh: true });
    },
  );

  app.patch(
    '/accounts/:account_uuid/carrier-configs/:carrier_reference/',
    {
      schema: {
        ...schema,
        summary:
          'Change a carrier configuration: booking kinds, or settings as a merge patch (rotate a secret by sending only it; null removes a setting)',
        params: Type.Object({ account_uuid: Type.String({ format: 'uuid' }), carrier_reference: Type.String({ maxLength: 50 }) }),
        body: CarrierConfigPatchBody,
        response: { 200: CarrierConfig, ...errors },
      },
    },
    async (request) => {
      const account = await accounts.require(request.params.account_uuid);
      return carrierConfigs.update(account.id, request.params.carrier_reference, request.body);
    },
  );

  app.get(
    '/carriers/',
    {
      schema: {
        ...schema,
        summary: 'Every carrier adapter: capabilities, settings schema (secrets marked), environments, limits',
        response: { 200: Type.Array(CarrierCatalogueEntry), ...errors },
      },
    },
    async () => carrierCatalogue(app.context.carriers, app.context.carrierKit.operator),
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
      const account = await accounts.require(request.params.account_uuid);
      await carrierConfigs.remove(account.id, request.params.carrier_reference);
      // Sent empty: the typed reply of a 204 wants null, which would be serialized as a body.
      reply.code(204);
      return reply.send();
    },
  );

  // Simulated histories (`waybill simulate history|delete`). The hooks are where delivery intelligence is told of
  // each simulated shipment as of a tracked one (none given: the history is written without them).
  // Simulated shipments teach predictions and fill analytics as tracked ones do, and are taken out again on delete.
  const learner = app.context.deliveryLearner;
  const simulations = new SimulatedHistories(app.context.repos, app.context.clock, {
    // Counted with their batch, so that the next batch's windows are issued from the history written before it.
    onShipments: async (repos, shipments, now) => {
      for (const shipment of shipments) await learner.observe(repos, shipment, now);
      await learner.learn(
        repos,
        shipments.map((shipment) => shipment.id),
      );
    },
    beforeDelete: (repos, shipments) => learner.forget(repos, shipments),
  });

  app.post(
    '/accounts/:account_uuid/simulated-history/',
    {
      schema: {
        ...schema,
        summary: 'Create a reproducible simulated delivery history in the account (source `simulation`, never polled)',
        params: AccountUuidParams,
        body: SimulatedHistoryBody,
        response: { 201: SimulatedHistoryCreated, ...errors },
      },
    },
    async (request, reply) => {
      const account = await accounts.require(request.params.account_uuid);
      return reply.code(201).send(await simulations.create(account.id, request.body));
    },
  );

  app.delete(
    '/accounts/:account_uuid/simulated-history/',
    {
      schema: {
        ...schema,
        summary: "Delete the account's simulated shipments (source `simulation`) and nothing else",
        params: AccountUuidParams,
        response: { 200: SimulatedHistoryDeleted, ...errors },
      },
    },
    async (request) => {
      const account = await accounts.require(request.params.account_uuid);
      return { deleted: await simulations.delete(account.id) };
    },
  );

  webhookManagementRoutes(app, {
    base: '/accounts/:account_uuid/webhooks/',
    params: AccountUuidParams,
    accountOf: async (_request, params) => (await accounts.require(params.account_uuid)).id,
    wrap: (schema) => schema,
    envelope: (data) => data,
    schema,
    errors,
    service: app.context.webhookEndpoints,
  });
};
