import diagnostics from 'node:diagnostics_channel';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

/** Operator endpoints and signed download links, deliberately left out of the merchant-facing document. */
const undocumented = [/^\/healthz$/, /^\/metrics$/, /^\/openapi\.json$/, /^\/docs(\/|$)/, /^\/files\//, /^\/t\//, /^\/console(\/|$)/];

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
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document whose references all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
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

  it('leaves the operator endpoints out of the document', () => {
    for (const path of Object.keys(doc.paths)) {
      expect(undocumented.some((pattern) => pattern.test(path))).toBe(false);
    }
  });
});
