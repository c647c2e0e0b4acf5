import { summaryEntryOf, unknownSummaryEntry } from '../../../src/carriers/royalm/royalm.answers.js';
import { RoyalMailCarrier } from '../../../src/carriers/royalm/royalm.carrier.js';
import type { RoyalmSummaryMailPiece } from '../../../src/carriers/royalm/royalm.payload.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';
import { royalmFixture } from './fixtures.js';

export const CLIENT_ID = 'rm-client-7c41d2e0';
export const CLIENT_SECRET = 'rm-secret-5b9f03aa61';
export const SETTINGS = { client_id: CLIENT_ID, client_secret: CLIENT_SECRET };

/** Which events fixture answers for which synthetic number (S10 numbers with valid check digits, one 2D id). */
export const NUMBERS: Record<string, string> = {
  QA900000019GB: 'events-delivered',
  QA900000022GB: 'events-neighbour',
  QA900000036GB: 'events-attempted',
  QA900000040GB: 'events-local-collect',
  QA900000053GB: 'events-returned',
  QA900000067GB: 'events-international',
  QA900000075GB: 'events-unmapped',
  QA900000084GB: 'events-dst',
  QA900000098GB: 'events-empty',
  '0B9A8C7D6E5F40302010A': 'events-2d',
};
/** A valid S10 number Royal Mail does not know. */
export const UNKNOWN = 'QA900000994GB';

export const SUMMARY_PATH = '/mailpieces/v2/summary';
export const EVENTS_PATH = /^\/mailpieces\/v2\/[^/]+\/events$/;
export const SIGNATURE_PATH = /^\/mailpieces\/v2\/[^/]+\/signature$/;

/** The numbers a summary request asked for, in order. */
export function askedIn(request: ReceivedRequest): string[] {
  return (request.query.get('mailPieceId') ?? '').split(',').filter(Boolean);
}

function refused(request: ReceivedRequest): ScriptedReply | null {
  if (request.headers['x-ibm-client-id'] !== CLIENT_ID || request.headers['x-ibm-client-secret'] !== CLIENT_SECRET) {
    return { status: 401, body: royalmFixture('unauthorized') };
  }
  if (request.headers['x-accept-rmg-terms'] !== 'yes') return { status: 400, body: royalmFixture('bad-request') };
  return null;
}

/** The summary entry Royal Mail would give for a number: its fixture's summary, or its unknown barcode. */
export function summaryEntry(number: string): RoyalmSummaryMailPiece {
  const fixture = NUMBERS[number];
  if (!fixture) return unknownSummaryEntry(number, (royalmFixture('not-found').errors as unknown[])[0]);
  return summaryEntryOf(number, royalmFixture(fixture));
}

export interface RoyalmServerOptions {
  delayMs?: number;
  /** Numbers the summary leaves out (their history is then asked directly). */
  withoutSummary?: ReadonlySet<string>;
}

/**
 * A local stand-in for Royal Mail's Tracking API v2: the documented paths and headers (401 without the client
 * id and secret, 400 `E0004` without `X-Accept-RMG-Terms: yes`), summaries built from the events fixtures, the
 * fixtures by number, and `E1142` for numbers it does not know.
 */
export async function royalmServer(options: RoyalmServerOptions = {}): Promise<CarrierServer> {
  const server = await new CarrierServer().start();
  server.on('GET', SUMMARY_PATH, (request) => {
    const refusal = refused(request);
    if (refusal) return refusal;
    const asked = askedIn(request);
    if (asked.length > 30)
      return { status: 400, body: { httpCode: '400', errors: [{ errorCode: 'E0013', errorDescription: 'Too many' }] } };
    const mailPieces = asked.filter((n) => !options.withoutSummary?.has(n)).map(summaryEntry);
    return { status: 200, body: { mailPieces }, delayMs: options.delayMs };
  });
  server.on('GET', EVENTS_PATH, (request) => {
    const refusal = refused(request);
    if (refusal) return refusal;
    const number = decodeURIComponent(request.path.split('/')[3] ?? '');
    const fixture = NUMBERS[number];
    if (!fixture) return { status: 404, body: royalmFixture('not-found'), delayMs: options.delayMs };
    return { status: 200, body: royalmFixture(fixture), delayMs: options.delayMs };
  });
  server.on('GET', SIGNATURE_PATH, (request) => refused(request) ?? { status: 200, body: royalmFixture('signature-svg') });
  return server;
}

export function royalmAdapter(server: CarrierServer, now?: () => number): { adapter: RoyalMailCarrier; kit: CarrierToolkit } {
  const kit = localToolkit('royalm', server.url, {}, now);
  return { adapter: new RoyalMailCarrier(kit), kit };
}

/** A clock 100,000 times faster than the wall clock: the credential's pace (two calls a second) does not slow tests. */
export function fastClock(): () => number {
  const wall = Date.now();
  const start = performance.now();
  // Read from the monotonic clock: two calls in the same millisecond still see time pass.
  return () => Math.round(wall + (performance.now() - start) * 100_000);
}
