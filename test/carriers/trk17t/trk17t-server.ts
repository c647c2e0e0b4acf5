import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { Trk17tCarrier } from '../../../src/carriers/trk17t/trk17t.carrier.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { fixture, knownParcels, pendingEntry } from './trk17t.fixtures.js';

export { fixture, NUMBERS } from './trk17t.fixtures.js';

export const API_KEY = 'trk17t-fixture-key-4c9e21a7d05b';
export const SETTINGS = { api_key: API_KEY };

export const TRACK_PATH = '/track/v2.2/gettrackinfo';
export const REGISTER_PATH = '/track/v2.2/register';
export const STOP_PATH = '/track/v2.2/stoptrack';
export const RETRACK_PATH = '/track/v2.2/retrack';

export interface Trk17tServer extends CarrierServer {
  /** Registered numbers, with the carrier key 17TRACK found for each. */
  registered: Map<string, number>;
  /** Every number a `register` call registered, once per registration. */
  registrations: string[];
  /** Numbers whose tracking was stopped. */
  stopped: Set<string>;
  /** Every number a `retrack` call tracked again, once per re-tracking (17TRACK allows one in a number's life). */
  retracked: string[];
  /** Registrations the account may still make (null: no end). */
  quota: number | null;
  /** What 17TRACK knows of each parcel: its `gettrackinfo` entry, by number (a test may change them). */
  parcels: Map<string, Record<string, unknown>>;
}

/** The numbers of a request's body (`[{ "number": … }]`). */
export function numbersOf(request: ReceivedRequest): string[] {
  return (JSON.parse(request.body) as Array<{ number: string }>).map((item) => item.number);
}

const rejected = (number: string, code: number, message: string) => ({ number, error: { code, message } });

/**
 * A local stand-in for 17TRACK's Tracking API v2.2 with key `API_KEY`: `register` (-18019901 for a registered number,
 * -18019908 once the quota is spent), `gettrackinfo` (-18019902 for a number not registered; the fixture of a parcel
 * it knows, else a number without information yet), `stoptrack` (a stopped number answers what it had when it
 * stopped, whatever its parcel does since) and `retrack` (-18019904 for a number not stopped, -18019905 for one
 * re-tracked before). `registered` numbers are registered from the start; `trackReply` answers every
 * `gettrackinfo` instead.
 */
export async function trk17tServer(
  options: { registered?: readonly string[]; quota?: number | null; trackReply?: ScriptedReply } = {},
): Promise<Trk17tServer> {
  const server = (await new CarrierServer().start()) as Trk17tServer;
  const parcels: Map<string, Record<string, unknown>> = knownParcels();
  server.parcels = parcels;
  const carrierOf = (number: string) => Number(parcels.get(number)?.carrier ?? 0);
  server.registered = new Map((options.registered ?? []).map((number) => [number, carrierOf(number)]));
  server.registrations = [];
  server.stopped = new Set();
  server.retracked = [];
  /** What a stopped number answers: its entry when it stopped. */
  const frozen = new Map<string, unknown>();
  server.quota = options.quota ?? null;

  /** The key, the body's shape and its size, as 17TRACK checks them before anything else. */
  const refused = (request: ReceivedRequest): ScriptedReply | null => {
    if (request.headers['17token'] !== API_KEY) return { status: 401, body: fixture('invalid-key.json') };
    const numbers = numbersOf(request);
    if (numbers.length > 40) return { body: { code: -18010014, data: { errors: [{ code: -18010014, message: 'Over 40 numbers.' }] } } };
    return null;
  };

  server.on('POST', TRACK_PATH, (request) => {
    if (options.trackReply) return options.trackReply;
    const denied = refused(request);
    if (denied) return denied;
    const accepted: unknown[] = [];
    const refusals: unknown[] = [];
    for (const number of numbersOf(request)) {
      if (!server.registered.has(number))
        refusals.push(rejected(number, -18019902, `The tracking number '${number}' is not registered yet.`));
      else if (server.stopped.has(number)) accepted.push(frozen.get(number));
      else accepted.push(parcels.get(number) ?? pendingEntry(number, server.registered.get(number)));
    }
    return { body: { code: 0, data: { accepted, rejected: refusals } } };
  });
  server.on('POST', REGISTER_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const accepted: unknown[] = [];
    const refusals: unknown[] = [];
    for (const number of numbersOf(request)) {
      if (server.registered.has(number))
        refusals.push(rejected(number, -18019901, `The tracking number '${number}' is already registered.`));
      else if (number.startsWith('ZZ')) refusals.push(rejected(number, -18019903, 'The carrier cannot be detected.'));
      else if (server.quota !== null && server.quota <= 0) refusals.push(rejected(number, -18019908, 'The quota has run out.'));
      else {
        if (server.quota !== null) server.quota--;
        server.registered.set(number, carrierOf(number));
        server.registrations.push(number);
        accepted.push({ origin: 1, number, carrier: carrierOf(number) });
      }
    }
    return { body: { code: 0, data: { accepted, rejected: refusals } } };
  });
  server.on('POST', STOP_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const accepted: unknown[] = [];
    const refusals: unknown[] = [];
    for (const number of numbersOf(request)) {
      if (!server.registered.has(number))
        refusals.push(rejected(number, -18019902, `The tracking number '${number}' is not registered yet.`));
      else if (server.stopped.has(number)) refusals.push(rejected(number, -18019906, 'Only numbers being tracked can be stopped.'));
      else {
        server.stopped.add(number);
        frozen.set(number, parcels.get(number) ?? pendingEntry(number, server.registered.get(number)));
        accepted.push({ number, carrier: server.registered.get(number) });
      }
    }
    return { body: { code: 0, data: { accepted, rejected: refusals } } };
  });
  server.on('POST', RETRACK_PATH, (request) => {
    const denied = refused(request);
    if (denied) return denied;
    const accepted: unknown[] = [];
    const refusals: unknown[] = [];
    for (const number of numbersOf(request)) {
      if (!server.registered.has(number))
        refusals.push(rejected(number, -18019902, `The tracking number '${number}' is not registered yet.`));
      else if (!server.stopped.has(number)) refusals.push(rejected(number, -18019904, 'Only stopped numbers can be re-tracked.'));
      else if (server.retracked.includes(number))
        refusals.push(rejected(number, -18019905, 'Each tracking number can only be re-tracked once.'));
      else {
        server.stopped.delete(number);
        frozen.delete(number);
        server.retracked.push(number);
        accepted.push({ number, carrier: server.registered.get(number) });
      }
    }
    return { body: { code: 0, data: { accepted, rejected: refusals } } };
  });
  return server;
}

/** An adapter whose calls go to the local server, with its own toolkit (a new one stands for a restart). */
export function trk17tAdapter(
  server: CarrierServer,
  env: Record<string, string> = {},
  now?: () => number,
): { adapter: Trk17tCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('trk17t', server.url, env, now);
  return { adapter: new Trk17tCarrier(kit), kit };
}
