import { Type } from '@sinclair/typebox';

const FieldErrors = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Field → list of messages, as in a 4030 error; nested objects and array positions nest further',
});

const RowPosition = {
  row: Type.Integer({ description: '1-based record number (the CSV header is not a record)' }),
  line: Type.Integer({ description: 'The line of the file the record starts on' }),
};

export const ImportQuery = Type.Object(
  {
    skip_existing: Type.Optional(
      Type.Boolean({
        default: false,
        description: 'Skip (and report) rows whose shipment_id exists instead of refusing them: resumes an import',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportBody = Type.String({
  description: 'CSV (text/csv) with a header row, or JSON Lines (application/x-ndjson) with one create body per line. See docs/import.md.',
});

export const ImportResult = Type.Object(
  {
    rows: Type.Integer({ description: 'Records read' }),
    created: Type.Integer(),
    skipped: Type.Array(Type.Object({ ...RowPosition, shipment_id: Type.String() })),
    errors: Type.Array(Type.Object({ ...RowPosition, shipment_id: Type.Union([Type.String(), Type.Null()]), errors: FieldErrors }), {
      description: 'Rows not created, each with its 4030-style field errors; nothing of such a row is stored',
    }),
  },
  { additionalProperties: false },
);
