import formbody from '@fastify/formbody';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { parseBasic } from './token.routes.js';

const CarrierParams = Type.Object({ carrier_id: Type.String({ minLength: 6, maxLength: 6 }) });

/** Tracking updates pushed by carriers; authenticated by the configuration's push token, not a merchant token. */
export const carrierHookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/carrier-hooks/:carrier_id/',
    {
      config: { rawBody: true },
      schema: {
        tags: ['Carrier push'],
        summary:
          'Receive tracking updates a carrier pushes (the push token as Authorization: Bearer, or where the carrier sends it); acknowledged at once, applied by a job',
        params: CarrierParams,
        response: {
          200: Type.Object({ api_response: Type.String(), data: Type.Object({ updates: Type.Integer(), queued: Type.Boolean() }) }),
          400: Type.Ref('ErrorEnvelope'),
          403: Type.Ref('ErrorEnvelope'),
        },
      },
    },
    async (request) => {
      const query = (request.query ?? {}) as Record<string, string | string[] | undefined>;
      const pushed = { headers: request.headers, rawBody: request.rawBody ?? Buffer.alloc(0), query };
      const data = await app.context.carrierPush.receive(request.params.carrier_id, pushed, request.body);
      return { api_response: '200', data };
    },
  );

  // Carriers that fetch an OAuth token before pushing (UPS Track Alert) are given this URL as their token URL.
  await app.register(async (scope) => {
    await scope.register(formbody, { bodyLimit: 4096 });
    scope.post<{ Params: { carrier_id: string }; Body: Record<string, unknown> | undefined }>(
      '/carrier-hooks/:carrier_id/oauth/token/',
      {
        schema: {
          tags: ['Carrier push'],
          summary:
            'OAuth 2.0 client credentials for carriers that fetch a token before pushing: the client secret is the push token (HTTP Basic, or client_id and client_secret in the form); the access token is for Authorization: Bearer on pushes',
          params: CarrierParams,
          consumes: ['application/x-www-form-urlencoded'],
          body: Type.Object(
            {
              grant_type: Type.Literal('client_credentials'),
              client_id: Type.Optional(Type.String()),
              client_secret: Type.Optional(Type.String()),
            },
            { description: 'form fields' },
          ),
          response: {
            200: Type.Object({ access_token: Type.String(), token_type: Type.Literal('Bearer'), expires_in: Type.Integer() }),
            400: Type.Ref('ErrorEnvelope'),
            403: Type.Ref('ErrorEnvelope'),
          },
        },
        // Checked by hand below, so that the secret is judged before anything else.
        validatorCompiler: () => () => true,
      },
      async (request, reply) => {
        const basic = parseBasic(request.headers.authorization);
        const body = request.body && typeof request.body === 'object' ? request.body : {};
        const secret = basic?.clientSecret ?? (typeof body.client_secret === 'string' ? body.client_secret : '');
        const token = await app.context.carrierPush.accessToken(request.params.carrier_id, secret);
        if (body.grant_type !== 'client_credentials') {
          return reply
            .code(400)
            .send({ api_response: '4000', message: 'grant_type must be client_credentials', error: 'unsupported_grant_type' });
        }
        reply.header('cache-control', 'no-store');
        return token;
      },
    );
  });
};
