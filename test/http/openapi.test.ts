import diagnostics from 'node:diagnostics_channel';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Operator endpoints, signed download and unsubscribe links, and pages, deliberately left out of the merchant-facing document. */
const undocumented = [
  /^\/healthz$/,
  /^\/metrics$/,
  /^\/openapi\.json$/,
  /^\/docs(\/|$)/,
  /^\/files\//,
  /^\/t\//,
  // The consumer's returns portal: HTML pages, like the tracking page.
  /^\/returns\//,
  /^\/console(\/|$)/,
  /^\/notifications\/unsubscribe\//,
];

interface RegisteredRoute {
  method: string;
  url: string;
}

/** `/a/:id/` → `/a/{id}/`, the OpenAPI spelling of a path parameter. */
function openApiPath(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

describe('GET /openapi.json', () => {
  let t: TestApp;
  let doc: Record<string, any>;
  let ajv: Ajv2020;
  const registered: RegisteredRoute[] = [];

  beforeAll(async () => {
    // Routes are registered inside buildApp, before the helper hands the app back; the initialization
    // channel fires when the instance is created, early enough to watch every route being added.
    const channel = diagnostics.channel('fastify.initialization');
    const watch = (message: unknown) => {
      (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route: RouteOptions) => {
        for (const method of [route.method].flat()) registered.push({ method, url: route.url });
      });
    };
    channel.subscribe(watch);
    try {
      t = await createTestApp();
    } finally {
      channel.unsubscribe(watch);
    }
    const res = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
    ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));
    ajv.addSchema(doc, 'openapi');
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    // resolveRefs replaces references in place: the other tests read the document as served.
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
    expect(doc.info).toMatchObject({ title: 'Waybill API', version: '5.0.0' });
    expect(doc.servers).toEqual([{ url: 'https://waybill.test' }]);
  });

  it('lists every merchant, token and admin route the app serves', () => {
    const documented = registered.filter((route) => route.method !== 'HEAD' && !undocumented.some((pattern) => pattern.test(route.url)));
    // The set under test is not empty and contains one route of each kind.
    expect(documented).toEqual(
      expect.arrayContaining([
        { method: 'POST', url: '/auth/oauth/token/' },
        { method: 'GET', url: '/v5/carrier-configs/' },
        { method: 'POST', url: '/admin/v1/accounts/' },
      ]),
    );
    const missing = documented.filter((route) => !doc.paths[openApiPath(route.url)]?.[route.method.toLowerCase()]);
    expect(missing).toEqual([]);
  });

  it('documents nothing that is not served', () => {
    const served = new Set(registered.map((route) => `${route.method} ${openApiPath(route.url)}`));
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.length).toBeGreaterThan(0);
    expect(operations.filter((operation) => !served.has(operation))).toEqual([]);
  });

  it('declares how each kind of route is authenticated', () => {
    expect(doc.paths['/auth/oauth/token/'].post.security).toEqual([{ basicAuth: [] }]);
    expect(doc.paths['/v5/carrier-configs/'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/admin/v1/accounts/'].post.security).toEqual([{ adminToken: [] }]);
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['adminToken', 'basicAuth', 'bearerAuth']);
  });

  /** Every operation with a method that reads a body, as `METHOD path` → operation. */
  const bodyOperations = () =>
    Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['post', 'put', 'patch'].includes(method))
        .map(([method, operation]) => ({ name: `${method.toUpperCase()} ${path}`, method, operation })),
    );
  const isMerchant = (operation: any) => (operation.security ?? []).some((s: object) => 'bearerAuth' in s);
  /** Follows a local `$ref` (`#/components/...`) to what it names. */
  const resolve = (node: any): any =>
    node?.$ref
      ? resolve(
          node.$ref
            .slice(2)
            .split('/')
            .reduce((at: any, key: string) => at?.[key], doc),
        )
      : node;

  it('declares Idempotency-Key and its 409 on every merchant POST, and 400 and 413 wherever a body is read', () => {
    const operations = bodyOperations();
    const merchantPosts = operations.filter(({ method, operation }) => method === 'post' && isMerchant(operation));
    expect(merchantPosts.map((o) => o.name)).toEqual(
      expect.arrayContaining(['POST /v5/shipment/', 'POST /v5/booking/', 'POST /v5/return/']),
    );
    for (const { name, operation } of merchantPosts) {
      const headers = (operation.parameters ?? []).map(resolve).filter((p: any) => p.in === 'header');
      expect(
        headers.map((p: any) => p.name),
        name,
      ).toContain('Idempotency-Key');
      expect(headers.find((p: any) => p.name === 'Idempotency-Key').schema, name).toEqual({ type: 'string', minLength: 1, maxLength: 255 });
      expect(resolve(operation.responses['409']).content['application/json'].schema, name).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
    for (const { name, operation } of operations) {
      for (const status of ['400', '413']) {
        expect(resolve(operation.responses[status])?.content?.['application/json']?.schema, `${name} ${status}`).toEqual({
          $ref: '#/components/schemas/ErrorEnvelope',
        });
      }
      expect(resolve(operation.responses['400']).description, name).toMatch(/4030.*4000/s);
    }
  });

  it('declares Waybill-Ignored-Fields on the answers of every merchant operation taking a JSON object', () => {
    const withObjectBody = bodyOperations().filter(
      ({ operation }) => isMerchant(operation) && operation.requestBody?.content?.['application/json']?.schema?.type === 'object',
    );
    expect(withObjectBody.map((o) => o.name)).toEqual(expect.arrayContaining(['POST /v5/shipment/', 'PATCH /v5/webhooks/{webhook_uuid}/']));
    for (const { name, operation } of withObjectBody) {
      const successes = Object.keys(operation.responses).filter((status) => /^2/.test(status));
      expect(successes.length, name).toBeGreaterThan(0);
      for (const status of successes) {
        const header = resolve(operation.responses[status].headers?.['Waybill-Ignored-Fields']);
        expect(header?.schema, `${name} ${status}`).toMatchObject({ type: 'string' });
      }
    }
  });

  it('describes field errors precisely: field → messages, nesting further for objects and array positions', () => {
    const envelope = doc.components.schemas.ErrorEnvelope;
    expect(envelope.properties.errors).toEqual({ $ref: '#/components/schemas/FieldErrors' });
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/FieldErrors' });
    expect(validate({ shipment_id: ['This field is required.'], line_items: { '0': { quantity: ['Too many.'] } } })).toBe(true);
    expect(validate({ shipment_id: 'This field is required.' })).toBe(false);
    expect(validate({ shipment_id: [1] })).toBe(false);
    expect(validate({ line_items: { '0': { quantity: 'x' } } })).toBe(false);
  });

  describe('real answers match the declared schemas', () => {
    let acct: TestAccount;
    beforeAll(async () => {
      acct = await t.account();
    });

    /** The schema the document declares for this answer, compiled from the document itself (by JSON pointer). */
    const declared = (path: string, method: string, status: number) => {
      const escapeKey = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');
      const response = doc.paths[path][method].responses[String(status)];
      expect(resolve(response), `${method} ${path} ${status}`).toBeDefined();
      const at = response.$ref ? response.$ref.slice(1) : `/paths/${escapeKey(path)}/${method}/responses/${status}`;
      return ajv.compile({ $ref: `openapi#${at}/content/application~1json/schema` });
    };
    const expectValid = (validate: ReturnType<typeof ajv.compile>, body: unknown) => {
      const valid = validate(body);
      expect(validate.errors ?? [], JSON.stringify(body)).toEqual([]);
      expect(valid).toBe(true);
    };

    it('a 4030, a 4000, a 409 and a 413 of POST /v5/shipment/', async () => {
      const post = (payload: unknown, headers: Record<string, string> = {}) =>
        t.app.inject({
          method: 'POST',
          url: '/v5/shipment/',
          headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json', ...headers },
          payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
        });
      const invalid = await post({ shipment_id: 'oa-1', item_count: 'two', recipient_address: { email: 'nope' } });
      expect(invalid.statusCode).toBe(400);
      expect(invalid.json().api_response).toBe('4030');
      expectValid(declared('/v5/shipment/', 'post', 400), invalid.json());

      const badKey = await post({ shipment_id: 'oa-2' }, { 'idempotency-key': 'k'.repeat(256) });
      expect(badKey.statusCode).toBe(400);
      expect(badKey.json().api_response).toBe('4000');
      expectValid(declared('/v5/shipment/', 'post', 400), badKey.json());

      expect((await post({ shipment_id: 'oa-3' }, { 'idempotency-key': 'oa-key' })).statusCode).toBe(200);
      const reused = await post({ shipment_id: 'oa-4' }, { 'idempotency-key': 'oa-key' });
      expect(reused.statusCode).toBe(409);
      expectValid(declared('/v5/shipment/', 'post', 409), reused.json());

      const huge = await post({ shipment_id: 'oa-5', note: 'x'.repeat(t.config.bodyLimitBytes) });
      expect(huge.statusCode).toBe(413);
      expectValid(declared('/v5/shipment/', 'post', 413), huge.json());
    });

    it('a 200 with ignored fields carries the declared header', async () => {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', { shipment_id: 'oa-6', carrier_code: 'DHL' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['waybill-ignored-fields']).toBe('carrier_code');
      expect(doc.paths['/v5/shipment/'].post.responses['200'].headers).toHaveProperty(['Waybill-Ignored-Fields']);
      expectValid(declared('/v5/shipment/', 'post', 200), res.json());
    });
  });

  it('leaves the operator endpoints out of the document', () => {
    for (const path of Object.keys(doc.paths)) {
      expect(undocumented.some((pattern) => pattern.test(path))).toBe(false);
    }
  });
});
