import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { RETURN_STATUSES } from '../../core/return-status.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { type ReturnsNotice, renderReturns } from '../pages/console/returns.html.js';
import { type SignedIn, sendHtml, sessionOf } from './console-session.js';
import { errorLines, FormInput, type QueryFields, UUID_PATTERN } from './form-input.js';

/** What the console's buttons do; other changes go through the API. */
const ACTIONS = ['approved', 'rejected'] as const;

/** Returns: the account's tickets with their state, and approve/reject through the same service as `POST /v5/return/update/`. */
export const returnRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { returns } = app.context;

  const show = async (
    reply: FastifyReply,
    session: SignedIn,
    status: number,
    query: unknown,
    notice: ReturnsNotice | null,
  ): Promise<FastifyReply> => {
    const input = new FormInput(query);
    const filter = { status: input.oneOf('status', RETURN_STATUSES), before: input.positiveInteger('before') };
    if (input.hasErrors()) throw new ValidationError(input.fieldErrors());
    const page = await returns.list(session.caller, { ...filter, limit: 25 });
    return sendHtml(reply, status, renderReturns({ session: session.view, filter, page, notice }));
  };

  app.get<{ Querystring: QueryFields }>('/returns/', async (request, reply) => {
    const session = sessionOf(request);
    const { changed, to, ...filters } = request.query;
    const notice =
      typeof changed === 'string' && (to === 'approved' || to === 'rejected')
        ? ({ kind: 'ok', title: `Return ${changed} is now ${to}.`, lines: [] } as ReturnsNotice)
        : null;
    return show(reply, session, 200, filters, notice);
  });

  app.post<{ Params: { return_uuid: string } }>('/returns/:return_uuid/status/', async (request, reply) => {
    const session = sessionOf(request);
    const { return_uuid } = request.params;
    if (!UUID_PATTERN.test(return_uuid)) throw new NotFoundError('No return matches the identifier');
    const form = new FormInput(request.body);
    const next = form.oneOf('return_status', ACTIONS);
    const reason = form.text('reject_reason', 1000);
    if (!next || form.hasErrors()) throw new ValidationError(form.fieldErrors());
    try {
      const ticket = await returns.update(session.caller, {
        return_uuid,
        return_status: next,
        ...(next === 'rejected' && reason ? { reject_reason: reason } : {}),
      });
      const params = new URLSearchParams({ changed: ticket.return_id ?? ticket.return_uuid, to: next });
      return reply.redirect(`/console/returns/?${params}`, 303);
    } catch (error) {
      // A refused transition (or a missing reason) is shown on the list, with the service's own words.
      if (!(error instanceof ValidationError)) throw error;
      const title = `The return could not be ${next === 'approved' ? 'approved' : 'rejected'}.`;
      return show(reply, session, 400, {}, { kind: 'alert', title, lines: errorLines(error.errors) });
    }
  });
};
