import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ImportFormat } from '../../domain/imports/import-rows.js';
import { type BodyValidator, ShipmentImportService } from '../../domain/imports/shipment-import.service.js';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import { ImportBody, ImportQuery, ImportResult } from '../../schemas/import.schemas.js';
import { ShipmentCreateBody } from '../../schemas/shipment-input.schemas.js';
import { callerOf } from '../auth.js';
import { unsupportedContentType } from '../body-parser.js';
import { fieldErrorsFromAjv } from '../errors.js';

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

/** The same structural validation as POST /v5/shipment/: the create schema, bodies as sent, every error. */
export function createBodyValidator(): BodyValidator {
  const ajv = addFormats.default(
    new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, strict: false, coerceTypes: false }),
  );
  const validate = ajv.compile(ShipmentCreateBody);
  return (body) => (validate(body) ? null : fieldErrorsFromAjv(validate.errors as Parameters<typeof fieldErrorsFromAjv>[0]));
}

/** POST /v5/shipment/import/: shipments from a CSV or JSON Lines file, source `file upload`. */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const importer = new ShipmentImportService(app.context.repos, app.context.shipments, createBodyValidator());

  // Files arrive as text; any other content type is refused in preValidation (400 "4000").
  app.addContentTypeParser(Object.keys(FORMATS), { parseAs: 'string', bodyLimit: IMPORT_BODY_LIMIT_BYTES }, (_request, body, done) =>
    done(null, body),
  );
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
