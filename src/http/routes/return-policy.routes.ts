import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ReturnPolicyBody, ReturnPolicyLogoBody, ReturnPolicyView } from '../../schemas/return-policy.schemas.js';
import { callerOf, requireFeature } from '../auth.js';

const tags = ['Returns'];

/** The account's returns policy, which the consumer's returns portal follows. */
export const returnPolicyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const policies = app.context.returnPolicies;
  const returnsOnly = requireFeature('returns');

  app.get(
    '/v5/returns/policy/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: 'The returns policy and the address of the returns portal',
        description: 'An account that never saved a policy gets the default one (portal off) and its portal reference.',
        security: bearerSecurity,
        response: { 200: Envelope(ReturnPolicyView), ...merchantErrors },
      },
    },
    async (request) => ({ api_response: '200', data: await policies.shown(callerOf(request).accountId) }),
  );

  app.put(
    '/v5/returns/policy/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: 'Replace the returns policy',
        description:
          'Every field, as GET answers it: a GET, a change and a PUT of the result is the way to change one field. ' +
          '`portal_reference`, `portal_url` and `updated_at` are read-only and ignored.',
        security: bearerSecurity,
        body: ReturnPolicyBody,
        response: { 200: Envelope(ReturnPolicyView), ...merchantErrors },
      },
    },
    async (request) => {
      const { portal_reference: _r, portal_url: _u, updated_at: _t, ...input } = request.body;
      return { api_response: '200', data: await policies.put(callerOf(request).accountId, input) };
    },
  );

  app.put(
    '/v5/returns/policy/logo/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: "Upload the portal's logo",
        description:
          'A whole PNG, JPEG, GIF or WebP of at most 256 KiB and 2,048 pixels on each side, in Base64. Kept in the database and served by the portal; ' +
          'shown instead of `branding.logo_url` until deleted.',
        security: bearerSecurity,
        body: ReturnPolicyLogoBody,
        response: { 200: Envelope(ReturnPolicyView), ...merchantErrors },
      },
    },
    async (request) => ({ api_response: '200', data: await policies.putLogo(callerOf(request).accountId, request.body) }),
  );

  app.delete(
    '/v5/returns/policy/logo/',
    {
      onRequest: returnsOnly,
      schema: {
        tags,
        summary: "Remove the portal's uploaded logo",
        security: bearerSecurity,
        response: { 200: Envelope(ReturnPolicyView), ...merchantErrors },
      },
    },
    async (request) => ({ api_response: '200', data: await policies.deleteLogo(callerOf(request).accountId) }),
  );
};
