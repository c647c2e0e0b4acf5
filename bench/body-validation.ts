/**
 * What validating a request body costs (`node --import tsx bench/body-validation.ts`): the create body of the
 * `mixed` scenario, and an update's, parsed and checked by the schema as the service compiles it (split by object,
 * http/split-schema.ts, with lengths counted in characters only where the UTF-16 length leaves them open,
 * http/string-lengths.ts) and, as baselines in the same run, split with Ajv's own length checks, and as the whole
 * schema compiled as one function with Ajv's. Rounds rotate between the three; the median of
 * `BODY_VALIDATION_ROUNDS` (9) is printed, in µs per body, JSON.parse included (the same for all).
 */
import { Ajv } from 'ajv';
import { withFormats } from '../src/http/formats.js';
import { splitSchema } from '../src/http/split-schema.js';
import { withCharacterLengths } from '../src/http/string-lengths.js';
import { ajvOptions } from '../src/http/validation.js';
import { ShipmentCreateBody, ShipmentUpdateBodyV52 } from '../src/schemas/shipment-input.schemas.js';
import { median, shipmentBody } from './fixtures.js';

const rounds = Number(process.env.BODY_VALIDATION_ROUNDS ?? 9);
const perRound = 20_000;
const whole = withFormats(new Ajv({ ...ajvOptions, coerceTypes: false }));
const split = withFormats(new Ajv({ ...ajvOptions, coerceTypes: false, inlineRefs: false }));
const service = withCharacterLengths(withFormats(new Ajv({ ...ajvOptions, coerceTypes: false, inlineRefs: false })));

const kinds = {
  create: { schema: ShipmentCreateBody, texts: Array.from({ length: 1000 }, (_, i) => JSON.stringify(shipmentBody('bv', i))) },
  update: {
    schema: ShipmentUpdateBodyV52,
    texts: Array.from({ length: 1000 }, (_, i) => JSON.stringify({ note: `update ${i}`, tags: ['a', 'b'], weight: { amount: i } })),
  },
};

for (const [kind, { schema, texts }] of Object.entries(kinds)) {
  const validators = {
    whole: whole.compile(schema),
    split: split.compile(splitSchema(schema)),
    service: service.compile(splitSchema(schema)),
  };
  const names = ['whole', 'split', 'service'] as const;
  const times: Record<keyof typeof validators, number[]> = { whole: [], split: [], service: [] };
  for (let round = 0; round < rounds; round++) {
    for (const name of [...names.slice(round % 3), ...names.slice(0, round % 3)]) {
      const validate = validators[name];
      const started = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) {
        if (!validate(JSON.parse(texts[i % texts.length]))) throw new Error(`${kind}: a bench body failed its schema`);
      }
      times[name].push(Number(process.hrtime.bigint() - started) / perRound / 1000);
    }
  }
  const [w, s, c] = [median(times.whole), median(times.split), median(times.service)];
  console.log(
    `${kind}: as the service checks it ${c.toFixed(2)} µs a body, split with Ajv's lengths ${s.toFixed(2)} µs ` +
      `(×${(c / s).toFixed(2)}), whole ${w.toFixed(2)} µs (×${(c / w).toFixed(2)}); ` +
      `source of the root function ${validators.split.toString().length} against ${validators.whole.toString().length} characters`,
  );
}
