import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SHIPMENT_STATUSES } from '../../core/shipment-status.js';
import { NotFoundError, ValidationError } from '../../domain/errors.js';
import { shipmentObject } from '../../domain/shipments/rendered-shipment.js';
import type { ListQuery } from '../../schemas/shipment-input.schemas.js';
import { renderShipmentPage } from '../pages/console/shipment.html.js';
import { type ListFilters, renderShipmentList, SEARCH_FIELDS, type SearchField } from '../pages/console/shipments.html.js';
import { sendHtml, sessionOf } from './console-session.js';
import { errorLines, FormInput, UUID_PATTERN } from './form-input.js';

const PAGE_SIZE = 25;
/** The newest consumer messages shown on a shipment's page (the API's log pages through all of them). */
const NOTIFICATION_LOG_SIZE = 50;

function readFilters(query: unknown): { filters: ListFilters; errors: string[] } {
  const input = new FormInput(query);
  const filters: ListFilters = {
    search_by:
      input.oneOf<SearchField>(
        'search_by',
        SEARCH_FIELDS.map(([key]) => key),
      ) ?? 'tracking_number',
    q: input.text('q', 100),
    status: input.oneOf('status', SHIPMENT_STATUSES),
    created_date_from: input.text('created_date_from', 40),
    created_date_to: input.text('created_date_to', 40),
    updated_date_from: input.text('updated_date_from', 40),
    updated_date_to: input.text('updated_date_to', 40),
    next_page: input.text('next_page', 2000),
  };
  return { filters, errors: errorLines(input.fieldErrors()) };
}

/** The list filters of `GET /v5/shipment/list/`, from the console's form. */
function listQuery(filters: ListFilters): ListQuery {
  const { search_by, q, next_page, ...rest } = filters;
  const query: ListQuery = { ...rest, limit: PAGE_SIZE };
  if (q) query[search_by] = q;
  if (next_page) query.next_page = next_page;
  return query;
}

/** Shipments: the list with the API's filters and cursor, and one shipment with its timeline and documents. */
export const shipmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { shipmentReader, documents, notifications } = app.context;

  app.get('/shipments/', async (request, reply) => {
    const session = sessionOf(request);
    const { filters, errors } = readFilters(request.query);
    if (errors.length) return sendHtml(reply, 400, renderShipmentList({ session: session.view, filters, rows: [], next: null, errors }));
    try {
      const page = await shipmentReader.list(session.caller, listQuery(filters));
      return sendHtml(
        reply,
        200,
        renderShipmentList({
          session: session.view,
          filters,
          rows: page.shipments.map(shipmentObject),
          next: page.next_page,
          errors: [],
        }),
      );
    } catch (error) {
      if (error instanceof NotFoundError) {
        return sendHtml(reply, 200, renderShipmentList({ session: session.view, filters, rows: [], next: null, errors: [] }));
      }
      if (error instanceof ValidationError) {
        const lines = errorLines(error.errors);
        return sendHtml(reply, 400, renderShipmentList({ session: session.view, filters, rows: [], next: null, errors: lines }));
      }
      throw error;
    }
  });

  app.get<{ Params: { shipment_uuid: string } }>('/shipments/:shipment_uuid/', async (request, reply) => {
    const session = sessionOf(request);
    const { shipment_uuid } = request.params;
    if (!UUID_PATTERN.test(shipment_uuid)) throw new NotFoundError('No shipment matches the identifier');
    const shipment = shipmentObject(await shipmentReader.details(session.caller, { shipment_uuid }, 'v5.2'));
    const files = await documents.list(session.caller, { shipment_uuid });
    const log = await notifications.log(session.caller.accountId, { shipment_uuid, limit: NOTIFICATION_LOG_SIZE });
    return sendHtml(
      reply,
      200,
      renderShipmentPage({
        session: session.view,
        shipment,
        documents: files.map((file) => ({ ...file, download_path: file.download_url ? pathOf(file.download_url) : null })),
        notifications: log.data,
        moreNotifications: log.next !== null,
      }),
    );
  });
};

/**
 * The signed download link as a path on this host: the signature covers the path and its expiry only, so the
 * link works wherever the console is served from, whatever WAYBILL_PUBLIC_URL says.
 */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
