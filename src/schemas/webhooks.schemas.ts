import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../core/webhook-types.js';
import { Nullable } from './common.js';

const EventType = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));
const Format = Type.Union([Type.Literal('v5'), Type.Literal('v5.2')], { description: 'Shape of the shipment in the payload' });

export const WebhookCreateBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS; must not resolve to a private or reserved address' }),
    format: Type.Optional(Format),
    events: Type.Optional(Nullable(Type.Array(EventType, { maxItems: 20, description: 'null or absent: every event type' }))),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const WebhookUpdateBody = Type.Object(
  {
    url: Type.Optional(Type.String({ minLength: 1, maxLength: 2048 })),
    format: Type.Optional(Format),
    events: Type.Optional(Nullable(Type.Array(EventType, { maxItems: 20 }))),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const WebhookUuidParams = Type.Object({ webhook_uuid: Type.String({ format: 'uuid' }) });

export const WebhookEndpoint = Type.Object({
  webhook_uuid: Type.String({ format: 'uuid' }),
  url: Type.String(),
  format: Type.String(),
  events: Nullable(Type.Array(Type.String())),
  enabled: Type.Boolean(),
  disabled_reason: Nullable(Type.String()),
  failing_since: Nullable(Type.String()),
  created_date: Type.String(),
  updated_date: Type.String(),
});

export const WebhookWithSecret = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'whsec_…; shown only now' }),
  previous_secret_expires_date: Type.Optional(Nullable(Type.String())),
});

export const DeliveryAttempt = Type.Object({
  event_id: Type.String(),
  type: Type.String(),
  attempted_date: Type.String(),
  status_code: Nullable(Type.Integer()),
  latency_ms: Type.Integer(),
  error: Nullable(Type.String()),
  delivery_status: Type.String(),
});

export const ResendBody = Type.Object(
  {
    webhook_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    since: Type.Optional(Type.String({ format: 'date-time', description: 'Only deliveries of events created since' })),
  },
  { additionalProperties: false },
);
