import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { Ship24Carrier } from '../../../src/carriers/ship24/ship24.carrier.js';
import { clientTrackerId, normalizeNumber } from '../../../src/carriers/ship24/ship24.trackers.js';
import { CarrierServer, type ReceivedRequest } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { fixture, knownParcels, pendingBody } from './ship24.fixtures.js';

export { fixture, NUMBERS } from './ship24.fixtures.js';

export const API_KEY = 'apik_fixture_ship24_key_7d41c9';
export const SETTINGS = { api_key: API_KEY };

export const RESULTS_PATH = /^\/public\/v1\/trackers\/[^/]+\/results$/;
export const BULK_PATH = '/public/v1/trackers/bulk';
export const TRACKER_PATH = /^\/public\/v1\/trackers\/wb-[0-9a-f]{32}$/;
export const COURIERS_PATH = '/public/v1/couriers';

export interface Ship24Server extends CarrierServer {
  /**
   * Trackers by `clientTrackerId`: the number, whether it is subscribed, and for an unsubscribed one the results it
   * had when it was unsubscribed (Ship24 looks for no news for it).
   */
  trackers: Map<string, { number: string; subscribed: boolean; frozen?: unknown }>;
  /** Every number a bulk call created a tracker for, once per creation. */
  created: string[];
}

/**
 * A local stand-in for the Ship24 Tracking API with key `API_KEY`: trackers created by `POST /trackers/bulk`
 * (`existing` when a subscribed tracker has the `clientTrackerId`; an unsubscribed one's id is free, and a new
 * tracker takes it), results by `clientTrackerId` (404 `tracker_not_found` for an unknown one; the fixture of a
 * parcel it can find, else a pending tracker; for an unsubscribed tracker, its results when it was unsubscribed),
 * `PATCH /trackers/{id}`, and `GET /couriers`. `registered` numbers have trackers from the start.
 */
export async function ship24Server(options: { registered?: readonly string[]; delayMs?: number } = {}): Promise<Ship24Server> {
  const server = (await new CarrierServer().start()) as Ship24Server;
  const parcels = knownParcels();
  server.trackers = new Map();
  server.created = [];
  for (const number of options.registered ?? [])
    server.trackers.set(clientTrackerId(number), { number: normalizeNumber(number), subscribed: true });
  const refused = (request: ReceivedRequest) =>
    request.headers.authorization === `Bearer ${API_KEY}`
      ? null
      : { status: 401, body: { errors: [{ code: 'auth_invalid_api_key', message: 'Invalid API key.' }], data: null } };
  const notFound = { status: 404, body: fixture('not-found.json') };

  server.on('GET', RESULTS_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const id = decodeURIComponent(request.path.split('/')[4] ?? '');
    const tracker = request.query.get('searchBy') === 'clientTrackerId' ? server.trackers.get(id) : undefined;
    if (!tracker) return { ...notFound, delayMs: options.delayMs };
    if (!tracker.subscribed) return { body: tracker.frozen, delayMs: options.delayMs };
    return { body: parcels.get(tracker.number) ?? pendingBody(tracker.number), delayMs: options.delayMs };
  });
  server.on('POST', BULK_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const items = JSON.parse(request.body) as Array<{ trackingNumber: string; clientTrackerId: string }>;
    const data = items.map((input) => {
      if (input.trackingNumber.length < 5) {
        return {
          itemStatus: 'error',
          inputData: input,
          tracker: null,
          errors: [{ code: 'validation_error', message: 'The trackingNumber provided seems invalid.' }],
        };
      }
      const known = server.trackers.get(input.clientTrackerId)?.subscribed;
      if (!known) {
        server.trackers.set(input.clientTrackerId, { number: input.trackingNumber, subscribed: true });
        server.created.push(input.trackingNumber);
      }
      const tracker = {
        trackerId: `t-${input.clientTrackerId}`,
        trackingNumber: input.trackingNumber,
        clientTrackerId: input.clientTrackerId,
        isSubscribed: true,
        isTracked: true,
      };
      return { itemStatus: known ? 'existing' : 'created', inputData: input, tracker, errors: null };
    });
    const errors = data.filter((item) => item.itemStatus === 'error').length;
    const status = errors === 0 ? 'success' : errors === data.length ? 'error' : 'partial';
    return {
      status: status === 'success' ? 201 : status === 'partial' ? 207 : 400,
      body: {
        status,
        summary: {
          totalInputs: data.length,
          totalCreated: data.filter((item) => item.itemStatus === 'created').length,
          totalExisting: data.filter((item) => item.itemStatus === 'existing').length,
          totalErrors: errors,
        },
        data,
        error: status === 'error' ? { code: 'processing_error', message: 'Every single item failed validation.' } : null,
      },
    };
  });
  server.on('PATCH', TRACKER_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const id = request.path.split('/').pop() ?? '';
    const tracker = request.query.get('searchBy') === 'clientTrackerId' ? server.trackers.get(id) : undefined;
    if (!tracker) return notFound;
    const patch = JSON.parse(request.body) as { isSubscribed?: boolean };
    if (patch.isSubscribed === false && tracker.subscribed) {
      tracker.subscribed = false;
      tracker.frozen = parcels.get(tracker.number) ?? pendingBody(tracker.number);
    }
    return {
      body: {
        data: { tracker: { trackerId: `t-${id}`, trackingNumber: tracker.number, clientTrackerId: id, isSubscribed: tracker.subscribed } },
      },
    };
  });
  server.on('GET', COURIERS_PATH, (request) => refused(request) ?? { body: fixture('couriers.json') });
  return server;
}

/** An adapter whose calls go to the local server, with its own toolkit (a new one stands for a restart). */
export function ship24Adapter(server: CarrierServer, env: Record<string, string> = {}): { adapter: Ship24Carrier; kit: CarrierToolkit } {
  const kit = localToolkit('ship24', server.url, env);
  return { adapter: new Ship24Carrier(kit), kit };
}
