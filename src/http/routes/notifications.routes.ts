import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { bearerSecurity, Envelope, merchantErrors } from '../../schemas/common.js';
import {
  NotificationLogQuery,
  NotificationLogView,
  NotificationSettingsBody,
  NotificationSettingsView,
  PreviewBody,
  PreviewView,
  TemplateBody,
  TemplateParams,
  TemplateView,
} from '../../schemas/notifications.schemas.js';
import { callerOf } from '../auth.js';

const tags = ['Notifications'];
const errors = { ...merchantErrors, 404: Type.Ref('ErrorEnvelope') };

/** Consumer notifications for merchants: settings, templates with previews, and the log of what went out. */
export const notificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const settings = app.context.notificationSettings;
  const service = app.context.notifications;

  app.get(
    '/v5/notification/settings/',
    {
      schema: {
        tags,
        summary: 'Which triggers send e-mail and SMS, from which sender, in which default language',
        security: bearerSecurity,
        response: { 200: Envelope(NotificationSettingsView), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await settings.shown(callerOf(request).accountId) }),
  );

  app.put(
    '/v5/notification/settings/',
    {
      schema: {
        tags,
        summary: 'Replace the notification settings (SMS secrets left out or masked keep their values)',
        security: bearerSecurity,
        body: NotificationSettingsBody,
        response: { 200: Envelope(NotificationSettingsView), ...errors },
      },
    },
    async (request) => {
      const body = request.body;
      const data = await settings.put(callerOf(request).accountId, {
        email: {
          enabled: body.email.enabled,
          triggers: body.email.triggers,
          sender_name: body.email.sender_name ?? null,
          sender_email: body.email.sender_email ?? null,
          reply_to: body.email.reply_to ?? null,
        },
        sms: { enabled: body.sms.enabled, triggers: body.sms.triggers, provider: body.sms.provider ?? null, settings: body.sms.settings },
        default_language: body.default_language as never,
        max_event_age_hours: body.max_event_age_hours ?? 48,
      });
      return { api_response: '200', data };
    },
  );

  const templatePath = '/v5/notification/templates/:trigger/:channel/:language/';
  app.get(
    templatePath,
    {
      schema: {
        tags,
        summary: "A message template: the merchant's own, or the default",
        security: bearerSecurity,
        params: TemplateParams,
        response: { 200: Envelope(TemplateView), ...errors },
      },
    },
    async (request) => {
      const { trigger, channel, language } = request.params;
      return { api_response: '200', data: await service.template(callerOf(request).accountId, trigger, channel, language) };
    },
  );

  app.put(
    templatePath,
    {
      schema: {
        tags,
        summary: 'Save a template (Liquid); a syntax error or unknown variable is a 4030 naming the field and line',
        security: bearerSecurity,
        params: TemplateParams,
        body: TemplateBody,
        response: { 200: Envelope(TemplateView), ...errors },
      },
    },
    async (request) => {
      const { trigger, channel, language } = request.params;
      const data = await service.putTemplate(callerOf(request).accountId, trigger, channel, language, request.body);
      return { api_response: '200', data };
    },
  );

  app.delete(
    templatePath,
    {
      schema: {
        tags,
        summary: 'Go back to the default template',
        security: bearerSecurity,
        params: TemplateParams,
        response: { 200: Envelope(TemplateView), ...errors },
      },
    },
    async (request) => {
      const { trigger, channel, language } = request.params;
      return { api_response: '200', data: await service.deleteTemplate(callerOf(request).accountId, trigger, channel, language) };
    },
  );

  app.post(
    `${templatePath}preview/`,
    {
      schema: {
        tags,
        summary: 'Render a template (given, saved or default) for a shipment, or for a sample; nothing is sent',
        security: bearerSecurity,
        params: TemplateParams,
        body: PreviewBody,
        response: { 200: Envelope(PreviewView), ...errors },
      },
    },
    async (request) => {
      const { trigger, channel, language } = request.params;
      return { api_response: '200', data: await service.preview(callerOf(request).accountId, trigger, channel, language, request.body) };
    },
  );

  app.get(
    '/v5/notification/log/',
    {
      schema: {
        tags,
        summary:
          'Messages queued, sent, failed or suppressed (and why), newest first; of one shipment given its shipment_uuid or shipment_id',
        security: bearerSecurity,
        querystring: NotificationLogQuery,
        response: { 200: Envelope(NotificationLogView), ...errors },
      },
    },
    async (request) => ({ api_response: '200', data: await service.log(callerOf(request).accountId, request.query) }),
  );
};
