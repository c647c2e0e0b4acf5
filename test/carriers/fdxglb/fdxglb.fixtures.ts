import fs from 'node:fs';
import path from 'node:path';
import { FedexCarrier } from '../../../src/carriers/fdxglb/fdxglb.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type Route } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';

/** Shared by the FedEx test files: the hand-written fixtures and a local FedEx standing in for the real one. */

export const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'fdxglb');

export function fixture<T = unknown>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

export const CLIENT_ID = 'fixture-client-id-4821';
export const CLIENT_SECRET = 'fixture-client-secret-93c7e';
export const SETTINGS = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, environment: 'sandbox' };

/** The numbers each tracking fixture answers for, in the order its answer lists them. */
export const NUMBERS: Record<string, string[]> = {
  'delivered.json': ['799900000021'],
  'in-transit.json': ['799900000043'],
  'customs.json': ['799900000087'],
  'exceptions.json': ['799900000124', '799900000135', '799900000146', '799900000168'],
  'times-without-offset.json': ['799900000179'],
  'multi-piece.json': ['799900000190', '799900000216'],
  'not-found.json': ['799900000227'],
  'partial-batch.json': ['799900000238', '799900000249', '799900000250'],
  'empty-events.json': ['799900000282'],
  'malformed.json': ['799900000293'],
};

/**
 * The tracking numbers asked in a request body, as FedEx reads them (`trackingInfo[].trackingNumberInfo.trackingNumber`).
 */
export function numbersAsked(body: string): string[] {
  const parsed = JSON.parse(body) as { trackingInfo: Array<{ trackingNumberInfo: { trackingNumber: string } }> };
  return parsed.trackingInfo.map((info) => info.trackingNumberInfo.trackingNumber);
}

/**
 * A tracking answer for exactly the numbers asked, taken from the fixtures (numbers no fixture knows are
 * answered not found), as the real API answers a batch.
 */
export function answerFor(body: string): unknown {
  const known = new Map<string, unknown>();
  for (const name of Object.keys(NUMBERS)) {
    if (name === 'malformed.json') continue;
    const answer = fixture<{ output: { completeTrackResults: Array<{ trackingNumber: string }> } }>(name);
    for (const entry of answer.output.completeTrackResults) known.set(entry.trackingNumber, entry);
  }
  const entries = numbersAsked(body).map(
    (number) =>
      known.get(number) ?? {
        trackingNumber: number,
        trackResults: [
          { trackingNumberInfo: { trackingNumber: number }, error: { code: 'TRACKING.TRACKINGNUMBER.NOTFOUND', message: 'Not found.' } },
        ],
      },
  );
  return { transactionId: 'local-fedex', output: { completeTrackResults: entries } };
}

export interface LocalFedex {
  server: CarrierServer;
  kit: CarrierToolkit;
  adapter: FedexCarrier;
  close(): Promise<void>;
}

/**
 * A local FedEx: the token path, the tracking path (`track` answers; default: the fixtures by number) and the
 * documents path, with an adapter pointed at it through `WAYBILL_CARRIER_FDXGLB_BASE_URL`.
 */
export async function localFedex(options: { track?: Route; now?: () => number } = {}): Promise<LocalFedex> {
  const server = await new CarrierServer().start();
  server
    .on('POST', '/oauth/token', () => ({ body: fixture('token.json') }))
    .on('POST', '/track/v1/trackingnumbers', options.track ?? ((request) => ({ body: answerFor(request.body) })))
    .on('POST', '/track/v1/trackingdocuments', () => ({ body: fixture('signature-proof.json') }));
  const kit = localToolkit('fdxglb', server.url, {}, options.now);
  const adapter = new FedexCarrier(kit);
  let closed = false;
  return {
    server,
    kit,
    adapter,
    async close() {
      if (closed) return;
      closed = true;
      await kit.http.close();
      await server.close();
    },
  };
}
