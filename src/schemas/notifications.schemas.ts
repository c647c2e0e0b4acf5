import { Type } from '@sinclair/typebox';
import { CHANNELS, TRIGGERS } from '../core/notification-triggers.js';
import { LANGUAGES } from '../i18n/languages.js';
import { Nullable } from './common.js';
import { ShipmentIdentifierQuery } from './shipment-input.schemas.js';

const TriggerList = Type.Array(Type.Unsafe<(typeof TRIGGERS)[number]>({ type: 'string', enum: [...TRIGGERS] }), {
  maxItems: TRIGGERS.length * 2,
});
/** One string of a list: one error naming the choices, rather than one per choice. */
const oneOf = <T extends string>(values: readonly T[]) => Type.Unsafe<T>({ type: 'string', enum: [...values] });
export const TriggerParam = oneOf(TRIGGERS);
export const ChannelParam = oneOf(CHANNELS);
export const LanguageParam = oneOf(LANGUAGES);

const EmailSettingsInput = Type.Object(
  {
    enabled: Type.Boolean(),
    triggers: TriggerList,
    sender_name: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    sender_email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
    reply_to: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 254 }))),
  },
  { additionalProperties: false },
);

const SmsSettingsInput = Type.Object(
  {
    enabled: Type.Boolean(),
    triggers: TriggerList,
    provider: Type.Optional(Nullable(Type.Literal('twilio'))),
    settings: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
  },
  { additionalProperties: false },
);

export const NotificationSettingsBody = Type.Object(
  {
    email: EmailSettingsInput,
    sms: SmsSettingsInput,
    default_language: Type.String({ minLength: 2, maxLength: 10 }),
    max_event_age_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
  },
  { additionalProperties: false },
);

export const NotificationSettingsView = Type.Object({
  email: Type.Object({
    enabled: Type.Boolean(),
    available: Type.Boolean({ description: 'Whether the operator configured an SMTP server' }),
    triggers: Type.Array(Type.String()),
    sender_name: Nullable(Type.String()),
    sender_email: Nullable(Type.String()),
    reply_to: Nullable(Type.String()),
  }),
  sms: Type.Object({
    enabled: Type.Boolean(),
    triggers: Type.Array(Type.String()),
    provider: Nullable(Type.String()),
    settings: Type.Record(Type.String(), Type.Unknown(), { description: 'Secret settings shown as ******** when set' }),
  }),
  default_language: Type.String(),
  max_event_age_hours: Type.Integer(),
});

export const TemplateParams = Type.Object({ trigger: TriggerParam, channel: ChannelParam, language: LanguageParam });

export const TemplateBody = Type.Object(
  {
    subject: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500 }))),
    body: Type.String({ minLength: 1, maxLength: 20_000 }),
  },
  { additionalProperties: false },
);

export const TemplateView = Type.Object({
  trigger: Type.String(),
  channel: Type.String(),
  language: Type.String(),
  subject: Nullable(Type.String()),
  body: Type.String(),
  custom: Type.Boolean({ description: "True when it is the merchant's own, false when it is the default" }),
  variables: Type.Array(Type.String()),
});

export const PreviewBody = Type.Object(
  {
    shipment_uuid: Type.Optional(Type.String({ format: 'uuid' })),
    subject: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 500 }))),
    body: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
  },
  { additionalProperties: false },
);

export const PreviewView = Type.Object({
  subject: Nullable(Type.String()),
  text: Type.String(),
  html: Nullable(Type.String()),
});

export const NotificationLogEntry = Type.Object({
  notification_uuid: Type.String({ format: 'uuid' }),
  shipment_uuid: Type.String({ format: 'uuid' }),
  trigger: Type.String(),
  channel: Type.String(),
  recipient: Type.String(),
  language: Type.String(),
  status: Type.Union([Type.Literal('queued'), Type.Literal('sent'), Type.Literal('failed'), Type.Literal('suppressed')]),
  reason: Nullable(Type.String()),
  message_id: Nullable(Type.String()),
  provider_message_id: Nullable(Type.String()),
  attempts: Type.Integer(),
  event_date: Nullable(Type.String()),
  created_date: Type.String(),
  updated_date: Type.String(),
  sent_date: Nullable(Type.String()),
});

export const NotificationLogQuery = Type.Object(
  {
    // The same identifiers, read the same way, as every other shipment route.
    ...ShipmentIdentifierQuery.properties,
    before: Type.Optional(Type.Integer({ minimum: 1 })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  },
  { additionalProperties: false },
);

export const NotificationLogView = Type.Object({ data: Type.Array(NotificationLogEntry), next: Nullable(Type.Integer()) });
