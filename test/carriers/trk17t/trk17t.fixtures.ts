import fs from 'node:fs';
import path from 'node:path';

export const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'trk17t');

export function fixture<T = Record<string, unknown>>(name: string): T {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, name), 'utf8')) as T;
}

/** The fixtures' numbers, by what 17TRACK knows of their parcels. */
export const NUMBERS = {
  delivered: 'RR900012343GB',
  inpost: '630000000000000000000042',
  international: 'LX900043218CN',
  exceptions: 'RB900077772GB',
  unmapped: '9400111202555000000010',
  pending: 'RR900055556GB',
  /** A number the local 17TRACK does not know until it is registered. */
  fresh: 'RR900012357GB',
} as const;

type Entry = { number: string } & Record<string, unknown>;

/** The `gettrackinfo` entry of a fixture (each holds one number's). */
export function entryOf(name: string): Entry {
  return fixture<{ data: { accepted: Entry[] } }>(name).data.accepted[0];
}

/** The entries of the parcels 17TRACK has information on, by number. */
export function knownParcels(): Map<string, Entry> {
  const entries = [
    'royal-mail-delivered.json',
    'inpost-locker.json',
    'international-cn-us.json',
    'exceptions-gb.json',
    'unmapped-us.json',
  ].map(entryOf);
  return new Map(entries.map((entry) => [entry.number, entry]));
}

/** A registered number without information yet (`pending.json` made the number's, with its carrier when known). */
export function pendingEntry(number: string, carrier = 0): Entry {
  return { ...entryOf('pending.json'), number, carrier };
}
