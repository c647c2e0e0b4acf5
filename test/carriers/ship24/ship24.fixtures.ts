import fs from 'node:fs';
import path from 'node:path';
import { clientTrackerId, normalizeNumber } from '../../../src/carriers/ship24/ship24.trackers.js';

export const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'ship24');

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

/** The fixtures' numbers, by what Ship24 knows of their parcels. */
export const NUMBERS = {
  delivered: 'TT200000010GB',
  pickup: 'TT200000023GB',
  pending: 'TT200000037GB',
  exceptions: 'TT200000045GB',
  international: '9400111202555000000010',
  unmapped: '9400111202555000000027',
  inpost: '620000000000000000000011',
} as const;

/** Results answers of the parcels Ship24 can find, by number. */
export function knownParcels(): Map<string, unknown> {
  return new Map<string, unknown>([
    [NUMBERS.delivered, fixture('delivered-gb.json')],
    [NUMBERS.pickup, fixture('pickup-gb.json')],
    [NUMBERS.exceptions, fixture('exceptions-gb.json')],
    [NUMBERS.international, fixture('international-us.json')],
    [NUMBERS.unmapped, fixture('unmapped.json')],
    [NUMBERS.inpost, fixture('inpost-pl.json')],
  ]);
}

/** A tracker without events yet (`pending.json` made the number's). */
export function pendingBody(number: string): unknown {
  const body = fixture<{ data: { trackings: Array<{ tracker: Record<string, unknown> }> } }>('pending.json');
  Object.assign(body.data.trackings[0].tracker, { trackingNumber: normalizeNumber(number), clientTrackerId: clientTrackerId(number) });
  return body;
}
