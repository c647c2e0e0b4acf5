import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFuzzWorld, type FuzzWorld, type Operation, operations, queryString } from '../fuzz/harness.js';
import { NUMERIC_EDGE_TEXTS as EDGES, isNumericSchema, type JsonSchema } from '../fuzz/schema-arbitrary.js';

interface NumericParameter {
  op: Operation;
  name: string;
  in: 'query' | 'path';
  schema: JsonSchema;
  integer: boolean;
}

/** Every number or integer parameter (alone or with null) of every GET operation the service publishes. */
function numericParameters(ops: Operation[]): NumericParameter[] {
  const found: NumericParameter[] = [];
  for (const op of ops.filter((o) => o.method === 'GET')) {
    const all = [
      ...Object.entries(op.query).map(([name, { schema }]) => ({ name, schema, in: 'query' as const })),
      ...Object.entries(op.params).map(([name, schema]) => ({ name, schema, in: 'path' as const })),
    ];
    for (const { name, schema, in: where } of all) {
      if (!isNumericSchema(schema)) continue;
      const integer = !(schema.anyOf ?? [schema]).some((branch) => branch.type === 'number');
      found.push({ op, name, in: where, schema, integer });
    }
  }
  return found;
}

/** Whether the text is a number the parameter takes: plain decimal digits, within its bounds and a double's. */
function accepted(text: string, parameter: NumericParameter): boolean {
  const shape = parameter.integer ? /^-?\d+$/ : /^-?\d+(\.\d+)?$/;
  if (!shape.test(text)) return false;
  const value = Number(text);
  if (parameter.integer ? !Number.isSafeInteger(value) : !Number.isFinite(value) || (value === 0 && /[1-9]/.test(text))) return false;
  const { minimum, maximum } = parameter.schema.anyOf?.find((b) => b.type !== 'null') ?? parameter.schema;
  return (minimum === undefined || value >= minimum) && (maximum === undefined || value <= maximum);
}

/**
 * Every numeric query and path parameter of the published GET operations, from the OpenAPI document: a text that
 * is not a number in plain decimal notation, or is one past the parameter's bounds, is a 4030 on that parameter,
 * never a 5xx (`?limit=1e309` reached the database as Infinity and was a 500); a number within them is taken.
 */
describe('numeric parameters of every GET route', () => {
  let world: FuzzWorld;
  let parameters: NumericParameter[] = [];
  beforeAll(async () => {
    world = await createFuzzWorld();
    parameters = numericParameters(await operations(world.t));
  });
  afterAll(async () => {
    await world?.t.close();
  });

  /** The request with `text` as the parameter, and the operation's other required parameters filled in. */
  async function send(parameter: NumericParameter, text: string) {
    const known: Record<string, string> = { carrier_reference: 'sb', shipment_uuid: world.shipmentUuid, webhook_uuid: world.webhookUuid };
    const query: Record<string, string> = {};
    for (const [name, { required }] of Object.entries(parameter.op.query)) if (required) query[name] = known[name] ?? 'x';
    let path = parameter.op.path;
    for (const name of Object.keys(parameter.op.params)) path = path.replace(`{${name}}`, known[name] ?? 'x');
    if (parameter.in === 'query') query[parameter.name] = text;
    else path = path.replace(`{${parameter.name}}`, encodeURIComponent(text));
    const admin = path.startsWith('/admin/');
    return world.t.app.inject({
      method: 'GET',
      url: `${path}${queryString(query)}`,
      headers: { authorization: `Bearer ${admin ? world.t.adminToken : world.acct.token}` },
    });
  }

  function check(parameter: NumericParameter, text: string, res: { statusCode: number; body: string }): void {
    const where = `${parameter.op.path} ${parameter.name}=${JSON.stringify(text)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
    expect(res.statusCode, where).toBeLessThan(500);
    const body = JSON.parse(res.body);
    const named = body.api_response === '4030' && Object.hasOwn(body.errors ?? {}, parameter.name);
    expect(named, where).toBe(!accepted(text, parameter));
  }

  it('finds the numeric parameters (limit, before, lat, lng, radius_meters)', () => {
    const names = new Set(parameters.map((p) => `${p.op.path} ${p.name}`));
    expect(names).toContain('/v5/shipment/list/ limit');
    expect(names).toContain('/v5/notification/log/ limit');
    expect(names).toContain('/v5/notification/log/ before');
    expect(names).toContain('/v5/pudo-locations/ lat');
    expect(names).toContain('/v5/pudo-locations/ radius_meters');
  });

  it('refuses each edge text as a 4030 on its parameter', async () => {
    for (const parameter of parameters) {
      for (const text of EDGES) {
        const res = await send(parameter, text);
        check(parameter, text, res);
        expect(JSON.parse(res.body).errors[parameter.name][0]).toMatch(
          /^Enter a (whole number in decimal digits|number in decimal notation)/,
        );
      }
      for (const text of ['9007199254740993', '99999999999999999999999', `0.${'0'.repeat(400)}1`])
        check(parameter, text, await send(parameter, text));
    }
  });

  it('answers any numeric-looking text with a 4030 on the parameter or takes it, never a 5xx', async () => {
    const text = fc.oneof(
      fc.constantFrom(...EDGES),
      fc.integer({ min: -1e6, max: 1e6 }).map(String),
      fc.double({ noNaN: true }).map(String),
      fc.string({ unit: fc.constantFrom(...'0123456789.-+eExob_ NaIfinty'.split('')), maxLength: 12 }),
    );
    for (const parameter of parameters) {
      await fc.assert(
        fc.asyncProperty(text, async (value) => check(parameter, value, await send(parameter, value))),
        { numRuns: 60 },
      );
    }
  });
});
