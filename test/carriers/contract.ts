import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BookingCapable, BookRequest } from '../../src/carriers/booking.js';
import type { CarrierAdapter, TrackRequest, TrackResult } from '../../src/carriers/carrier.js';
import { eventKey } from '../../src/carriers/event-key.js';
import { HttpCarrier } from '../../src/carriers/sdk/http-carrier.js';
import { parseEventTime } from '../../src/core/event-time.js';
import { ADDRESS_FIELDS } from '../../src/schemas/address.schemas.js';
import { LINE_ITEM_FIELDS } from '../../src/schemas/line-item.schemas.js';
import type { ScriptedReply } from './support/carrier-server.js';
import { requestsFor } from './support/kit.js';

/** One fixture of a carrier: a running local server with it, the adapter pointed there, and the numbers to ask. */
export interface ContractFixture {
  /** Starts the fixture's local server and an adapter pointed at it. */
  start(): Promise<{ adapter: CarrierAdapter; settings: Record<string, unknown>; close(): Promise<void> }>;
  /** Numbers to ask in one `track` call (found, not found, whatever the fixture holds). */
  numbers: string[];
  /** Values that must appear in no result (the credentials the fixture configures). */
  secrets: string[];
}

export interface CarrierContract {
  carrierId: string;
  fixtures: Record<string, ContractFixture>;
  /**
   * The adapter's pure mapping from the carrier's parsed JSON (one response body) to results; it must
   * never throw, whatever the JSON.
   */
  mapAnyJson(body: unknown): unknown;
  /**
   * For a mapper that reads nothing unless the body holds its root (InPost's `tracking_details`, DPD's SOAP
   * envelope): where that root is, what it holds, and bodies the carrier answered (the fixtures, parsed as the adapter parses
   * them). Arbitrary JSON is then also given under that root, built from the answers' own keys and values, so
   * the property reaches the mapping behind the guard, and the answers themselves with parts of them replaced by
   * arbitrary JSON; `pastRoot` says of a mapped result whether it got past the guard.
   */
  root?: { path: string[]; holds: 'list' | 'object'; samples: unknown[]; pastRoot(mapped: unknown): boolean };
}

/**
 * The contract every adapter keeps, run over each of its fixtures: one result per request in request
 * order; `track` never rejects; events oldest first; every time parses; `carrier_code` set; event keys
 * stable across two identical polls; carrier data stored before answered `unchanged` (HTTP carriers); no
 * secret in any result; the mapper never throws on arbitrary JSON.
 */
export function carrierContract(contract: CarrierContract): void {
  describe(`${contract.carrierId}: the carrier contract`, () => {
    for (const [name, fixture] of Object.entries(contract.fixtures)) {
      it(`${name}: one result per request, in order, oldest first, readable times, stable keys, no secrets`, async () => {
        const { adapter, settings, close } = await fixture.start();
        try {
          expect(adapter.record.id).toBe(contract.carrierId);
          const requests = requestsFor(...fixture.numbers);
          const first = await adapter.track(requests, settings, { now: new Date() });
          const second = await adapter.track(requests, settings, { now: new Date() });
          for (const results of [first, second]) {
            expect(results.map((r) => r.tracking_number)).toEqual(fixture.numbers);
            for (const result of results) checkResult(result);
            const text = JSON.stringify(results);
            for (const secret of fixture.secrets) expect(text).not.toContain(secret);
          }
          expect(keysOf(adapter, second)).toEqual(keysOf(adapter, first));
          if (adapter instanceof HttpCarrier) await checkKnownAnswers(adapter, settings, requests, first, second);
        } finally {
          await close();
        }
      });
    }

    it('the mapper never throws on arbitrary JSON', () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
          contract.mapAnyJson(value);
        }),
        { numRuns: 300 },
      );
    });

    const root = contract.root;
    if (root) {
      it(`the mapper never throws on arbitrary JSON under its root (${root.path.join('.')})`, () => {
        let past = 0;
        fc.assert(
          fc.property(fc.oneof(underRoot(root.path, root.holds, root.samples), mutatedSamples(root.samples)), (value) => {
            if (root.pastRoot(contract.mapAnyJson(value))) past++;
          }),
          { numRuns: 300 },
        );
        // Most bodies must reach the mapping, or the property tests the guard again.
        expect(past, 'bodies that got past the root guard').toBeGreaterThan(150);
      });
    }
  });
}

/** The names of a carrier's fixtures (test/carriers/fixtures/<carrier id>/*.<extension>), without the extension. */
export function fixtureNames(carrierId: string, extension: 'json' | 'xml'): string[] {
  const files = fs.readdirSync(path.join(import.meta.dirname, 'fixtures', carrierId));
  return files.filter((file) => file.endsWith(`.${extension}`)).map((file) => file.slice(0, -extension.length - 1));
}

/**
 * Arbitrary JSON in the carrier's vocabulary: objects whose keys are mostly the answers' own, values that are
 * arbitrary or the answers' own texts (codes, times), at most five levels deep; any value, a list or an object.
 */
export function carrierJson(samples: unknown[]): {
  value: fc.Arbitrary<unknown>;
  list: fc.Arbitrary<unknown[]>;
  object: fc.Arbitrary<object>;
} {
  const keys = new Set<string>();
  const texts = new Set<string>();
  const collect = (value: unknown): void => {
    if (typeof value === 'string') texts.add(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        keys.add(key);
        collect(inner);
      }
    }
  };
  samples.forEach(collect);
  const key = keys.size > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...keys) }, fc.string()) : fc.string();
  const ownText = texts.size > 0 ? [fc.constantFrom(...texts), fc.constantFrom(...texts)] : [];
  const scalar = fc.oneof(
    ...ownText,
    fc.string(),
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );
  return fc.letrec((tie) => ({
    value: fc.oneof({ maxDepth: 5, depthIdentifier: 'carrier-json' }, scalar, tie('list'), tie('object')),
    list: fc.array(tie('value'), { maxLength: 4, depthIdentifier: 'carrier-json' }),
    object: fc.dictionary(key, tie('value'), { maxKeys: 6, depthIdentifier: 'carrier-json' }),
  })) as { value: fc.Arbitrary<unknown>; list: fc.Arbitrary<unknown[]>; object: fc.Arbitrary<object> };
}

/**
 * Objects holding arbitrary carrier JSON at `path` (mostly of the kind the root `holds`, at times any value),
 * with arbitrary keys of the carrier's beside each level.
 */
export function underRoot(path: string[], holds: 'list' | 'object', samples: unknown[]): fc.Arbitrary<unknown> {
  const json = carrierJson(samples);
  const inner = fc.oneof({ weight: 4, arbitrary: json[holds] as fc.Arbitrary<unknown> }, json.value);
  return fc.tuple(fc.array(json.object, { minLength: path.length, maxLength: path.length }), inner).map(([siblings, value]) => {
    let body = value;
    for (let level = path.length - 1; level >= 0; level--) body = { ...siblings[level], [path[level]]: body };
    return body;
  });
}

/** The carrier's own answers with up to three of their parts (any value, list or object in them) replaced by arbitrary carrier JSON. */
export function mutatedSamples(samples: unknown[]): fc.Arbitrary<unknown> {
  const json = carrierJson(samples);
  const mutation = fc.tuple(fc.nat(), json.value);
  return fc.tuple(fc.constantFrom(...samples), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([sample, mutations]) => {
    let body = structuredClone(sample);
    for (const [at, value] of mutations) {
      const parts: Array<{ holder: Record<string, unknown> | unknown[] | null; key: string | number }> = [];
      const walk = (holder: Record<string, unknown> | unknown[] | null, key: string | number, node: unknown): void => {
        parts.push({ holder, key });
        if (node !== null && typeof node === 'object') {
          for (const [inner, child] of Object.entries(node))
            walk(node as Record<string, unknown>, Array.isArray(node) ? Number(inner) : inner, child);
        }
      };
      walk(null, '', body);
      const { holder, key } = parts[at % parts.length];
      if (holder === null) body = value;
      else (holder as Record<string | number, unknown>)[key] = value;
    }
    return body;
  });
}

/**
 * Carrier data as stored before is not mapped again: every found number has a fingerprint, the same in two
 * identical polls; asked again with it as `known_answer`, the number is answered `unchanged` (with that
 * fingerprint), and with another one, mapped as before. Other answers are what they were.
 */
async function checkKnownAnswers(
  adapter: CarrierAdapter,
  settings: Record<string, unknown>,
  requests: TrackRequest[],
  first: TrackResult[],
  second: TrackResult[],
): Promise<void> {
  const fingerprints = first.map((result) => (result.status === 'ok' ? result.fingerprint : undefined));
  first.forEach((result, i) => {
    if (result.status !== 'ok') return;
    expect(result.fingerprint, `${result.tracking_number} has a fingerprint`).toEqual(expect.any(String));
    expect(second[i].status === 'ok' && second[i].fingerprint).toBe(result.fingerprint);
  });
  const known = await adapter.track(
    requests.map((request, i) => ({ ...request, known_answer: fingerprints[i] ?? null })),
    settings,
    { now: new Date() },
  );
  const other = await adapter.track(
    requests.map((request) => ({ ...request, known_answer: `${adapter.record.id}.0:another` })),
    settings,
    { now: new Date() },
  );
  first.forEach((result, i) => {
    if (result.status === 'ok') {
      expect(known[i]).toEqual({ status: 'unchanged', tracking_number: result.tracking_number, fingerprint: result.fingerprint });
      expect(other[i]).toMatchObject({ status: 'ok', fingerprint: result.fingerprint });
      expect(keysOf(adapter, [other[i]])).toEqual(keysOf(adapter, [result]));
    } else {
      expect(known[i].status).toBe(result.status);
      expect(other[i].status).toBe(result.status);
    }
  });
}

export function checkResult(result: TrackResult): void {
  expect(['ok', 'not_found', 'error']).toContain(result.status);
  if (result.status === 'error') {
    expect(typeof result.message).toBe('string');
    expect(typeof result.retryable).toBe('boolean');
    return;
  }
  if (result.status !== 'ok') return;
  let previous = '';
  for (const event of result.events) {
    const parsed = parseEventTime(event.time, { timezone: event.timezone });
    expect(parsed.ok, `time "${event.time}" (${event.timezone}) parses`).toBe(true);
    if (!parsed.ok) continue;
    expect(parsed.time.utc >= previous, 'events oldest first').toBe(true);
    previous = parsed.time.utc;
    expect(typeof event.additional_info.carrier_code).toBe('string');
    expect(event.additional_info.carrier_code.length).toBeGreaterThan(0);
    expect(event.event.length).toBeGreaterThan(0);
    if (event.event_key !== null) expect(event.phase_key).not.toBeNull();
  }
  if (result.expected_delivery) {
    expect(parseEventTime(result.expected_delivery.from).ok).toBe(true);
    expect(parseEventTime(result.expected_delivery.to).ok).toBe(true);
  }
}

function keysOf(adapter: CarrierAdapter, results: TrackResult[]): string[][] {
  return results.map((result) =>
    result.status === 'ok' ? result.events.map((event) => eventKey(adapter.record.id, result.tracking_number, event)) : [],
  );
}

/** A carrier's booking fixture: its local server with hooks to misbehave, the adapter pointed there, and requests it can book. */
export interface BookingContractFixture {
  start(): Promise<{
    adapter: CarrierAdapter & BookingCapable;
    settings: Record<string, unknown>;
    /** A request the local carrier books. */
    request: BookRequest;
    /** A request that passes `checkBooking` but that the local carrier refuses with field-level messages. */
    refused: BookRequest;
    /** The next booking call gets this reply instead of the carrier's (`hang`: no answer at all). */
    script(reply: ScriptedReply): void;
    /** Booking calls the local carrier received so far. */
    bookingCalls(): number;
    close(): Promise<void>;
  }>;
  /** Values that must appear in no result (the credentials the fixture configures). */
  secrets: string[];
}

const SHIPMENT_FIELDS = new Set([
  'shipment_uuid',
  'shipment_id',
  'carrier_reference',
  'pudo_location_uuid',
  'carrier_metadata',
  'shipping_service',
  'weight',
  'dimensions',
  'line_items',
  'shipment_value',
  'description_of_goods',
  'shipment_reference',
]);

/** Whether a field error's path names a field of the booking request or of the shipment it books. */
export function pathExists(request: BookRequest, path: ReadonlyArray<string | number>): boolean {
  const [root, second, third] = path;
  if (root === request.sender_field || root === request.recipient_field)
    return path.length === 1 || ADDRESS_FIELDS.includes(second as never);
  if (!SHIPMENT_FIELDS.has(String(root))) return false;
  if (root === 'line_items' && path.length > 1) {
    return typeof second === 'number' && second < Math.max(1, request.line_items.length) && LINE_ITEM_FIELDS.includes(third as never);
  }
  // An option given (whatever its name), or one the carrier needs and the merchant left out.
  if (root === 'carrier_metadata' && path.length > 1) return typeof second === 'string';
  return true;
}

/** Arbitrary values where a booking request has its parts, so that `checkBooking` meets every shape. */
function arbitraryRequest(base: BookRequest) {
  const value = fc.jsonValue({ maxDepth: 3 });
  const address = fc.oneof(fc.constant(null), fc.dictionary(fc.constantFrom(...ADDRESS_FIELDS, 'other'), value, { maxKeys: 8 }));
  const parcel = fc.record({
    weight_grams: fc.oneof(fc.constant(null), fc.double({ noNaN: false })),
    dimensions_cm: fc.oneof(fc.constant(null), fc.record({ length: fc.double(), width: fc.double(), height: fc.double() })),
  });
  return fc
    .record({
      type_of_shipment: fc.constantFrom('outbound' as const, 'return' as const),
      shipping_service: fc.oneof(
        fc.constant(null),
        fc.string({ maxLength: 12 }),
        fc.constantFrom('V01PAK', 'V53WPAK', 'V62KP', 'V07PAK', '11'),
      ),
      sender: address,
      recipient: address,
      weight_grams: fc.oneof(fc.constant(null), fc.double()),
      carrier_metadata: fc.dictionary(fc.string({ maxLength: 24 }), value, { maxKeys: 5 }),
      parcels: fc.array(parcel, { minLength: 1, maxLength: 4 }),
      line_items: fc.array(fc.dictionary(fc.constantFrom(...LINE_ITEM_FIELDS, 'other'), value, { maxKeys: 10 }), { maxLength: 3 }),
      shipment_reference: fc.oneof(fc.constant(null), fc.string({ maxLength: 60 })),
    })
    .map((parts) => ({ ...base, ...parts }) as BookRequest);
}

/**
 * The booking contract every booking adapter keeps: `checkBooking` never throws whatever the request; `book`
 * resolves with data for the carrier's faults; a call sent without an answer is `outcome_unknown` and sent once;
 * field errors name paths that exist in the request.
 */
export function bookingContract(contract: { carrierId: string; fixture: BookingContractFixture }): void {
  describe(`${contract.carrierId}: the booking contract`, () => {
    const { fixture } = contract;

    it('checkBooking never throws, whatever the request, and names existing paths', async () => {
      const { adapter, settings, request, close } = await fixture.start();
      try {
        fc.assert(
          fc.property(arbitraryRequest(request), (arbitrary) => {
            const problems = adapter.checkBooking(arbitrary, settings);
            for (const problem of problems) expect(pathExists(arbitrary, problem.path), JSON.stringify(problem.path)).toBe(true);
          }),
          { numRuns: 300 },
        );
      } finally {
        await close();
      }
    });

    it('books the fixture request, and answers every carrier fault with data, never throwing', async () => {
      const started = await fixture.start();
      try {
        const booked = await started.adapter.book(started.request, started.settings, { now: new Date() });
        expect(booked.status, JSON.stringify(booked).slice(0, 400)).toBe('ok');
        const faults: ScriptedReply[] = [
          { status: 500, body: { title: 'Internal Server Error' } },
          { status: 503, headers: { 'content-type': 'text/plain' }, body: 'upstream unavailable' },
          { status: 400, headers: { 'content-type': 'text/plain' }, body: 'not json at all' },
          { status: 200, headers: { 'content-type': 'text/html' }, body: '<html>maintenance</html>' },
          { status: 200, body: {} },
        ];
        for (const fault of faults) {
          started.script(fault);
          const result = await started.adapter.book(started.request, started.settings, { now: new Date() });
          expect(result.status).toBe('error');
          if (result.status !== 'error') continue;
          expect(typeof result.message).toBe('string');
          expect(typeof result.retryable).toBe('boolean');
          for (const secret of fixture.secrets) expect(JSON.stringify(result)).not.toContain(secret);
        }
      } finally {
        await started.close();
      }
    });

    it('a booking sent without an answer is outcome_unknown, and is sent once', async () => {
      const started = await fixture.start();
      try {
        // A first booking fetches whatever token the carrier needs, so the next call is the booking alone.
        expect((await started.adapter.book(started.request, started.settings, { now: new Date() })).status).toBe('ok');
        const before = started.bookingCalls();
        started.script({ hang: true });
        const result = await started.adapter.book(started.request, started.settings, { now: new Date(), signal: AbortSignal.timeout(400) });
        expect(result).toMatchObject({ status: 'error', outcome_unknown: true });
        expect(started.bookingCalls() - before).toBe(1);
      } finally {
        await started.close();
      }
    });

    it("the carrier's refusal comes back as field errors on paths that exist in the request", async () => {
      const started = await fixture.start();
      try {
        expect(started.adapter.checkBooking(started.refused, started.settings)).toEqual([]);
        const result = await started.adapter.book(started.refused, started.settings, { now: new Date() });
        expect(result).toMatchObject({ status: 'error', retryable: false });
        const errors = result.status === 'error' ? (result.field_errors ?? []) : [];
        expect(errors.length).toBeGreaterThan(0);
        for (const error of errors) expect(pathExists(started.refused, error.path), JSON.stringify(error.path)).toBe(true);
      } finally {
        await started.close();
      }
    });
  });
}
