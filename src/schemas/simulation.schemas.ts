import { Type } from '@sinclair/typebox';

/** The most shipments one request may simulate: written within the default request timeout on either database. */
export const MAX_SHIPMENTS_PER_REQUEST = 20_000;

export const SimulatedHistoryBody = Type.Object(
  {
    shipments: Type.Integer({ minimum: 1, maximum: MAX_SHIPMENTS_PER_REQUEST, description: 'how many shipments to create' }),
    weeks: Type.Integer({ minimum: 1, maximum: 156, description: 'over how many weeks, ending on `end`, their labels were created' }),
    seed: Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Integer()], {
      description: 'the same seed (with the same shipments, weeks and end) gives the same history',
    }),
    end: Type.Optional(Type.String({ format: 'date', description: 'the last day of the history (default: today, UTC)' })),
  },
  { additionalProperties: false },
);

export const SimulatedHistoryCreated = Type.Object({
  shipments: Type.Integer(),
  events: Type.Integer(),
  weeks: Type.Integer(),
  seed: Type.String(),
  from: Type.String({ description: 'first day of the history' }),
  to: Type.String({ description: 'last day of the history' }),
  source: Type.String({ description: 'the `source` every simulated shipment has' }),
});

export const SimulatedHistoryDeleted = Type.Object({ deleted: Type.Integer({ description: 'simulated shipments deleted' }) });
