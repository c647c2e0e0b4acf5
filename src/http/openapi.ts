import { IGNORED_FIELDS_HEADER_MAX } from './unknown-fields.js';

type Json = Record<string, any>;

const errorBody = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

/** What every operation of a kind may answer beside its own responses, declared once under `components`. */
const components = {
  parameters: {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Any string of 1 to 255 characters. The same key with the same request within 24 hours gets the first answer again ' +
        '(header Idempotent-Replayed: true); with a different request, 409.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  },
  headers: {
    WaybillIgnoredFields: {
      description:
        'Fields of the request body this service does not know, which were ignored (not stored): comma-separated paths ' +
        'in the notation of 4030 errors (`carrier_code,line_items.0.colour`), each key percent-encoded outside ' +
        `A-Z a-z 0-9 _ -, a blank key written "". At most ${IGNORED_FIELDS_HEADER_MAX} characters: a longer list ends with \`+N\`, N paths ` +
        'not listed. Absent when nothing was ignored, and for accounts with strict_fields (they get a 4030 instead).',
      schema: { type: 'string', maxLength: IGNORED_FIELDS_HEADER_MAX },
    },
  },
  responses: {
    BadRequest: errorBody(
      '`4030`: validation errors, `errors` keyed by field (nested objects and array positions nest further); ' +
        '`4000`: the request itself is malformed (not JSON, wrong Content-Type, a bad Idempotency-Key), with a message and no `errors`.',
    ),
    IdempotencyConflict: errorBody(
      '`4090`: the Idempotency-Key was already used with a different request, or a request with it is still being processed ' +
        '(then with Retry-After); or the request conflicts with existing data.',
    ),
    PayloadTooLarge: errorBody('`4130`: the request body is larger than the service accepts.'),
  },
};

const BODY_METHODS = new Set(['post', 'put', 'patch']);

function isMerchant(operation: Json): boolean {
  return (operation.security ?? []).some((requirement: Json) => 'bearerAuth' in requirement);
}

/**
 * Declares, on every operation of the generated document, what the service answers beyond the route's own
 * schemas: the Idempotency-Key header and its 409 on merchant POSTs, 413 wherever a body is read, the
 * ignored-fields header on merchant answers to a body, and 400 as both `4030` and `4000`.
 */
export function decorateOpenApi({ openapiObject }: { openapiObject: Json }): Json {
  const doc = openapiObject;
  doc.components ??= {};
  for (const [kind, entries] of Object.entries(components)) doc.components[kind] = { ...doc.components[kind], ...entries };
  for (const item of Object.values<Json>(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries<Json>(item)) {
      if (!BODY_METHODS.has(method)) continue;
      operation.responses ??= {};
      const responses = operation.responses;
      const merchant = isMerchant(operation);
      if (merchant && method === 'post') {
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }];
        responses['409'] = { $ref: '#/components/responses/IdempotencyConflict' };
      }
      responses['400'] = { $ref: '#/components/responses/BadRequest' };
      responses['413'] = { $ref: '#/components/responses/PayloadTooLarge' };
      // Only JSON object bodies are checked field by field (an import's CSV or JSON Lines rows are not).
      if (merchant && operation.requestBody?.content?.['application/json']?.schema?.type === 'object') {
        for (const [status, response] of Object.entries<Json>(responses)) {
          if (!/^2\d\d$/.test(status) || response.$ref) continue;
          response.headers = { ...response.headers, 'Waybill-Ignored-Fields': { $ref: '#/components/headers/WaybillIgnoredFields' } };
        }
      }
    }
  }
  return doc;
}
