import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkAnswer,
  createFuzzWorld,
  expectNothingPersisted,
  type FuzzWorld,
  type Operation,
  operations,
  queryString,
  rowCounts,
} from './harness.js';
import { FUZZ_TIMEOUT, fuzzArb, fuzzRuns, isNumericSchema, type JsonSchema, NUMERIC_EDGE_TEXTS, nastyString } from './schema-arbitrary.js';

/** Cases tried per operation in this process, for the figures in docs/reliability.md. */
export const casesTried = new Map<string, number>();

interface Request {
  url: string;
  body: unknown;
  hasBody: boolean;
  sentKeys: string[];
}

/**
 * A generated value as a path segment's text. Objects go as JSON: generated keys such as `toString` or `valueOf`
 * hold data, not functions, so `String()` cannot convert them.
 */
function pathText(value: unknown): string {
  if (value === '') return 'x';
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** For a numeric parameter, texts a lax number reader takes for numbers (a query or path value is text). */
function numericEdges(schema: JsonSchema): Array<fc.WeightedArbitrary<unknown>> {
  return isNumericSchema(schema) ? [{ weight: 2, arbitrary: fc.constantFrom(...NUMERIC_EDGE_TEXTS) }] : [];
}

function requestArb(op: Operation, world: FuzzWorld): fc.Arbitrary<Request> {
  const known: Record<string, string> = {
    document_uuid: world.documentUuid,
    webhook_uuid: world.webhookUuid,
    account_uuid: world.acct.accountUuid,
    shipment_uuid: world.shipmentUuid,
    client_id: world.acct.clientId,
    carrier_reference: 'sb',
  };
  const paramArbs = Object.fromEntries(
    Object.entries(op.params).map(([name, schema]) => [
      name,
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(known[name] ?? 'x') },
        { weight: 2, arbitrary: fuzzArb(schema) },
        { weight: 1, arbitrary: nastyString },
        ...numericEdges(schema),
      ),
    ]),
  );
  const queryArbs = Object.fromEntries(
    Object.entries(op.query).map(([name, { schema }]) => [
      name,
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(undefined) },
        { weight: 2, arbitrary: fc.constant(name in known ? known[name] : name === 'shipment_id' ? world.shipmentId : undefined) },
        { weight: 4, arbitrary: fuzzArb(schema as JsonSchema) },
        ...numericEdges(schema as JsonSchema),
      ),
    ]),
  );
  const extraQuery = fc.option(
    fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'unknown', 'limit[]', 'a[b]'), nastyString),
    { nil: undefined, freq: 5 },
  );
  const bodyArb: fc.Arbitrary<{ body: unknown; hasBody: boolean }> = op.body
    ? fc.oneof(
        { weight: 12, arbitrary: fuzzArb(op.body).map((body) => ({ body, hasBody: true })) },
        { weight: 1, arbitrary: fc.constant({ body: undefined, hasBody: false }) },
      )
    : fc.oneof(
        { weight: 6, arbitrary: fc.constant({ body: undefined, hasBody: false }) },
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((body) => ({ body, hasBody: true })) },
      );
  return fc
    .tuple(fc.record(paramArbs) as fc.Arbitrary<Record<string, unknown>>, fc.record(queryArbs), extraQuery, bodyArb)
    .map(([params, query, extra, { body, hasBody }]) => {
      let path = op.path;
      for (const [name, value] of Object.entries(params)) {
        const text = pathText(value);
        let encoded: string;
        try {
          encoded = encodeURIComponent(text);
        } catch {
          // Lone surrogates; invalid UTF-8 in the path is covered on its own (raw-requests.fuzz.test.ts).
          encoded = '%EF%BF%BD';
        }
        path = path.replace(`{${name}}`, encoded.slice(0, 300));
      }
      const q: Record<string, unknown> = { ...query };
      if (extra) q[extra[0]] = extra[1];
      const sentKeys = [
        ...Object.keys(q).filter((k) => q[k] !== undefined),
        ...(body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []),
      ];
      return { url: `${path}${queryString(q)}`, body, hasBody, sentKeys };
    });
}

/**
 * Property-based requests against every published operation the filter selects: bodies, queries and path
 * parameters from the operation's own schema, with faults anywhere. Each answer keeps the invariants of
 * checkAnswer; a refused request leaves every counted table as it was.
 */
export function describeEndpointFuzz(name: string, select: (op: Operation) => boolean, runs = 40): void {
  describe(`fuzz: ${name}`, () => {
    let world: FuzzWorld;
    let ops: Operation[] = [];
    beforeAll(async () => {
      world = await createFuzzWorld();
      ops = (await operations(world.t)).filter(select);
    });
    afterAll(async () => {
      await world?.t.close();
    });

    it(
      'every selected operation keeps the invariants',
      async () => {
        expect(ops.length).toBeGreaterThan(0);
        const { t, acct } = world;
        for (const op of ops) {
          const label = `${op.method} ${op.path}`;
          const admin = op.path.startsWith('/admin/');
          const knownFields = [...Object.keys(op.body?.properties ?? {}), ...Object.keys(op.query), ...Object.keys(op.params)];
          let tried = 0;
          await fc.assert(
            fc.asyncProperty(requestArb(op, world), async (req) => {
              tried++;
              const before = await rowCounts(t);
              const res = await t.app.inject({
                method: op.method as 'GET',
                url: req.url,
                headers: {
                  authorization: `Bearer ${admin ? t.adminToken : acct.token}`,
                  ...(req.hasBody ? { 'content-type': 'application/json' } : {}),
                },
                ...(req.hasBody ? { payload: JSON.stringify(req.body) ?? 'null' } : {}),
              });
              const where = `${label} ${req.url.slice(0, 200)} ${(JSON.stringify(req.body) ?? '').slice(0, 300)}`;
              checkAnswer(res, { label: where, knownFields, sentKeys: req.sentKeys, bookingShape: op.path.startsWith('/v5/booking/') });
              if (res.statusCode >= 400) expectNothingPersisted(before, await rowCounts(t), where);
            }),
            { numRuns: fuzzRuns(runs), endOnFailure: true },
          );
          casesTried.set(label, (casesTried.get(label) ?? 0) + tried);
        }
        if (process.env.FUZZ_REPORT) console.log(JSON.stringify(Object.fromEntries(casesTried)));
      },
      FUZZ_TIMEOUT,
    );
  });
}
