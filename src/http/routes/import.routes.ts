import { isUtf8 } from 'node:buffer';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { InvalidRequestError } from '../../domain/errors.js';
import type { ImportFormat } from '../../domain/imports/import-rows.js';
import { type BodyValidator, ShipmentImportService } from '../../domain/imports/shipment-import.service.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ImportBody, ImportQuery, ImportResult } from '../../schemas/import.schemas.js';
import { ShipmentCreateBody } from '../../schemas/shipment-input.schemas.js';
import { callerOf } from '../auth.js';
import { LONE_SURROGATE, unsupportedContentType } from '../body-parser.js';
import { fieldErrorAt, fieldErrorsFromAjv } from '../errors.js';
import { withFormats } from '../formats.js';
import { withCharacterLengths } from '../string-lengths.js';
import { nonFiniteAt, nulAt, stringAt, TOO_LARGE_NUMBER } from '../validation.js';

/** Import files are larger than API bodies: 50 MiB, about 100,000 typical rows. */
export const IMPORT_BODY_LIMIT_BYTES = 50 * 1024 * 1024;

const FORMATS: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/x-ndjson': 'jsonl',
  'application/jsonl': 'jsonl',
  'application/jsonlines': 'jsonl',
};

const formatOf = (request: FastifyRequest): ImportFormat | undefined =>
  FORMATS[
    String(request.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase()
  ];

/**
 * The same checks as POST /v5/shipment/: no NUL character and no half of a surrogate pair in any string, and no number
 * too large for a double anywhere (a row is refused on the first such field, as a body is), then the create schema,
 * bodies as sent, every error.
 */
export function createBodyValidator(): BodyValidator {
  const ajv = withCharacterLengths(
    withFormats(
      new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, strictNumbers: true, coerceTypes: false }),
    ),
  );
  const validate = ajv.compile(ShipmentCreateBody);
  return (body) => {
    const nul = nulAt(body);
    if (nul) return fieldErrorAt(nul, 'Must not contain the NUL character.');
    const surrogate = stringAt(body, (text) => LONE_SURROGATE.test(text));
    if (surrogate) return fieldErrorAt(surrogate, 'Must not contain half of a surrogate pair: it is no character.');
    const infinite = nonFiniteAt(body);
    if (infinite) return fieldErrorAt(infinite, TOO_LARGE_NUMBER);
    return validate(body) ? null : fieldErrorsFromAjv(validate.errors as Parameters<typeof fieldErrorsFromAjv>[0]);
  };
}

/** A file's bytes as text, refused (400 "4000") when they are not UTF-8: never stored with replacement characters. */
function fileText(bytes: Buffer): string {
  if (!isUtf8(bytes)) throw new InvalidRequestError('Invalid request format: the file is not valid UTF-8');
  return bytes.toString('utf8');
}

/** POST /v5/shipment/import/: shipments from a CSV or JSON Lines file, source `file upload`. */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const importer = new ShipmentImportService(app.context.repos, app.context.shipments, createBodyValidator());

  // Files arrive as UTF-8 text; any other content type is refused in preValidation (400 "4000").
  app.addContentTypeParser(Object.keys(FORMATS), { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) => {
    try {
      done(null, fileText(body as Buffer));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) => done(null, body));
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );

  app.post(
    '/v5/shipment/import/',
    {
      bodyLimit: IMPORT_BODY_LIMIT_BYTES,
      preValidation: (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) =>
        done(formatOf(request) ? undefined : unsupportedContentType(request)),
      schema: {
        tags: ['Shipments'],
        summary: 'Import shipments from a CSV or JSON Lines file',
        description:
          'Each row is created with the rules of POST /v5/shipment/ (source `file upload`), all or nothing per row. ' +
          'The answer counts the created rows and lists each refused row with its field errors. Up to 50 MiB.',
        security: bearerSecurity,
        consumes: Object.keys(FORMATS),
        querystring: ImportQuery,
        body: ImportBody,
        response: { 200: Envelope(ImportResult), ...merchantErrors, 413: Type.Ref('ErrorEnvelope') },
      },
    },
    async (request) => {
      const result = await importer.run(callerOf(request), formatOf(request) as ImportFormat, request.body, {
        skipExisting: request.query.skip_existing === true,
      });
      return { api_response: '200', data: result };
    },
  );
};
