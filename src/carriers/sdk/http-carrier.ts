import { setMaxListeners } from 'node:events';
import type { TObject } from '@sinclair/typebox';
import { deadline } from '../../core/deadline.js';
import { type EventTimeResult, parseEventTime } from '../../core/event-time.js';
import type {
  CarrierAdapter,
  CarrierCapabilities,
  CarrierError,
  CarrierEvent,
  CarrierRecord,
  CarrierSettings,
  TrackOptions,
  TrackRequest,
  TrackResult,
} from '../carrier.js';
import { type CodeTable, mapCode } from './codes.js';
import { type CallAuth, type CarrierCall, type CarrierResponse, heldBack } from './http.js';
import { KnownAnswers, normalize, type SameAnswer } from './known-answers.js';
import type { CarrierLimits, CredentialGate } from './limits.js';
import { type CarrierEnvironment, checkSettings, environmentOf, isSecret } from './settings.js';
import { mapSplitAnswer, type RawEntry } from './split-answer.js';
import { type IssuedToken, TokenCache } from './token-cache.js';
import type { CarrierToolkit } from './toolkit.js';

/** Everything one batch of tracking calls needs: the settings in force, where to call, and the deadline. */
export interface CallContext {
  /** The configuration's settings over the operator's defaults, already checked against the schema. */
  settings: Readonly<Record<string, unknown>>;
  environment: CarrierEnvironment;
  /** The base URL for this environment, or the operator's `WAYBILL_CARRIER_<ID>_BASE_URL`. */
  baseUrl: string;
  signal?: AbortSignal;
  now: Date;
  /** Secret values of this configuration, redacted from every message. */
  secrets: string[];
  /** Identifies the credential: token cache and limits are kept per credential. */
  credentialKey: string;
  /**
   * Ends the waits for the credential's limits (`TrackOptions.waitMs`), for calls made with `waitFor` as
   * their signal: a later call on a context given another signal (a proof downloaded afterwards) waits as
   * its own signal allows.
   */
  waitSignal?: AbortSignal;
  waitFor?: AbortSignal | null;
  /** What the caller stored of each number's last answer (tracking calls): see `HttpCarrier.unchangedAnswer`. */
  answers?: KnownAnswers;
}

/** What one credential can serve the poller (`HttpCarrier.pollCapacity`). */
export interface PollCapacity {
  /** The credential: configurations that share one share its capacity. */
  credential: string;
  /** Tracking numbers it could be asked for within the horizon, at its pace and within its quota. */
  numbers: number;
  /** Tracking numbers it can still be asked for today, or null without a daily quota. */
  numbersToday: number | null;
}

/** An adapter that can say how much a credential can be polled for (the poller sizes its claims by it). */
export function sizesPolls(adapter: object): adapter is { pollCapacity(settings: CarrierSettings, horizonMs: number): PollCapacity } {
  return typeof (adapter as { pollCapacity?: unknown }).pollCapacity === 'function';
}

/**
 * The base of every adapter that calls a carrier over HTTP. It owns what every carrier needs the same
 * way: settings (merchant's over operator's, checked), base URLs (operator's override), limits per
 * credential (batch size, concurrency, rate, daily quota, pauses after 429s), the token cache, one
 * result per request in request order, events oldest first, and never throwing. An adapter writes
 * only `trackBatch`: its endpoint, its payload, its codes.
 */
export abstract class HttpCarrier implements CarrierAdapter {
  abstract readonly record: CarrierRecord;
  abstract readonly capabilities: CarrierCapabilities;
  abstract readonly settingsSchema: TObject;
  abstract readonly limits: CarrierLimits;
  /** The carrier's documented base URLs (scheme and host, no trailing slash). */
  protected abstract readonly baseUrls: { production: string; sandbox?: string };

  constructor(protected readonly kit: CarrierToolkit) {}

  get environments(): CarrierEnvironment[] {
    return this.baseUrls.sandbox ? ['production', 'sandbox'] : ['production'];
  }

  /**
   * Looks up at most `limits.numbers_per_call` numbers in one carrier call. Returns one result per
   * number (any order; matched by number), or one error for all of them.
   */
  protected abstract trackBatch(numbers: string[], context: CallContext): Promise<TrackResult[] | CarrierError>;

  /** The settings that identify the credential (default: every secret, `client_id`, and the environment). */
  protected credentialParts(settings: Readonly<Record<string, unknown>>): unknown[] {
    const names = Object.keys(this.settingsSchema.properties).filter(
      (name) => name === 'client_id' || name === 'environment' || isSecret(this.settingsSchema.properties[name]),
    );
    return names.sort().map((name) => [name, settings[name] ?? null]);
  }

  /** Settings in force: the configuration's over the operator's `WAYBILL_CARRIER_<ID>_<SETTING>`. */
  effectiveSettings(settings: CarrierSettings): Record<string, unknown> {
    return { ...this.kit.operator.defaults(this.record.id, Object.keys(this.settingsSchema.properties)), ...settings };
  }

  /** The key of the credential these settings hold: token cache and limits are kept per credential. */
  credentialKey(settings: Readonly<Record<string, unknown>>): string {
    return TokenCache.key(this.record.id, this.credentialParts(settings));
  }

  callsLeftToday(settings: CarrierSettings): number | null {
    const effective = this.effectiveSettings(settings);
    const gate = this.kit.gates.find(this.credentialKey(effective));
    // The carrier said the day's quota is spent (whatever our count says): nothing is left until the reset.
    if (gate?.paused()?.reason === 'quota') return 0;
    return gate?.remainingToday() ?? this.limits.daily_quota;
  }

  /**
   * How many numbers this configuration's credential can be asked for within `horizonMs` (its rate from now,
   * its quota) and today: the poller claims no more than that for it in a round. A number costs its share of a
   * batch call, and the follow-up calls its adapter reported for the credential's recent numbers
   * (`followUpCalls`).
   */
  pollCapacity(settings: CarrierSettings, horizonMs: number): PollCapacity {
    const effective = this.effectiveSettings(settings);
    const credential = this.credentialKey(effective);
    const gate = this.kit.gates.gate(credential, this.limits);
    const size = Math.max(1, this.limits.numbers_per_call);
    // calls ÷ (1/size + follow-ups per number), written so that without follow-ups it is calls × size exactly.
    const perCalls = 1 + size * gate.followUpsPerNumber();
    const numbersFor = (calls: number) => Math.floor((calls * size) / perCalls);
    const callsToday = gate.paused()?.reason === 'quota' ? 0 : gate.remainingToday();
    return { credential, numbers: numbersFor(gate.capacity(horizonMs)), numbersToday: callsToday === null ? null : numbersFor(callsToday) };
  }

  /**
   * Reports that a batch of `numbers` needed `calls` calls beyond its one (a history asked per number whose
   * summary changed): the credential's claims are then sized by the calls its numbers have needed lately
   * (`pollCapacity`), so a round claims what the carrier's rate can serve before the poll's wait runs out. An
   * adapter whose batches make one call does not call it.
   */
  protected followUpCalls(context: CallContext, numbers: number, calls: number): void {
    this.kit.gates.gate(context.credentialKey, this.limits).noteFollowUps(numbers, calls);
  }

  async track(requests: readonly TrackRequest[], settings: CarrierSettings, options: TrackOptions): Promise<TrackResult[]> {
    const effective = this.effectiveSettings(settings);
    const problems = checkSettings(this.settingsSchema, effective);
    if (problems.length > 0) {
      const message = `The ${this.record.name} configuration is incomplete: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join(' ')}`;
      return requests.map((r) => ({ status: 'error', tracking_number: r.tracking_number, retryable: false, message }));
    }
    // One deadline serves every call and wait of a poll (each adds and removes its listener): no leak, so no warning.
    if (options.signal) setMaxListeners(0, options.signal);
    const context = this.context(effective, options);
    const known = new KnownAnswers(this.record.id, requests);
    context.answers = known;
    const gate = this.kit.gates.gate(context.credentialKey, this.limits);
    const size = Math.max(1, this.limits.numbers_per_call);
    // One question per number however it was written (spaces, case); every request gets the answer.
    const byKey = new Map<string, string>();
    for (const r of requests) if (!byKey.has(normalize(r.tracking_number))) byKey.set(normalize(r.tracking_number), r.tracking_number);
    const numbers = [...byKey.values()];
    const answers = new Map<string, TrackResult>();
    const batches: string[][] = [];
    for (let i = 0; i < numbers.length; i += size) batches.push(numbers.slice(i, i + size));
    await Promise.all(
      batches.map(async (batch) => {
        const outcome = await gate.run(() => this.safeBatch(batch, context), context.waitSignal ?? options.signal);
        if ('paused' in outcome || 'aborted' in outcome) {
          // Nothing was asked: a wait like a throttle, for one call's turn at the rate when the deadline came first.
          const turn = 1 / Math.max(this.limits.requests_per_second, 1 / 3600);
          const held = heldBack(this.record.name, 'paused' in outcome ? outcome : 'aborted', this.kit.now(), turn);
          for (const n of batch) answers.set(n, { ...held, tracking_number: n });
          return;
        }
        this.heed(gate, Array.isArray(outcome) ? outcome.find((r) => r.status === 'error' && r.throttled && !r.held) : outcome);
        if (!Array.isArray(outcome)) {
          for (const n of batch) answers.set(n, { ...outcome, tracking_number: n });
          return;
        }
        const byNumber = new Map(outcome.map((result) => [normalize(result.tracking_number), result]));
        for (const n of batch) {
          const result = byNumber.get(normalize(n));
          answers.set(
            n,
            result
              ? this.finished({ ...result, tracking_number: n }, known)
              : { status: 'error', tracking_number: n, retryable: true, message: `${this.record.name} gave no answer for this number` },
          );
        }
      }),
    );
    return requests.map((r) => {
      const answer = answers.get(byKey.get(normalize(r.tracking_number)) as string) as TrackResult;
      return answer.tracking_number === r.tracking_number ? answer : { ...answer, tracking_number: r.tracking_number };
    });
  }

  /**
   * The context of a call other than tracking (a push subscription): the settings in force, checked as for
   * tracking, or the non-retryable error an incomplete configuration gets.
   */
  protected prepare(settings: CarrierSettings, options: TrackOptions): CallContext | CarrierError {
    const effective = this.effectiveSettings(settings);
    const problems = checkSettings(this.settingsSchema, effective);
    if (problems.length > 0) {
      const message = `The ${this.record.name} configuration is incomplete: ${problems.map((p) => `${p.path.join('.')}: ${p.message}`).join(' ')}`;
      return { status: 'error', retryable: false, message };
    }
    return this.context(effective, options);
  }

  /** Calls the carrier through the shared transport, with this adapter's id, secrets and the call's deadline. */
  protected call(context: CallContext, call: Omit<CarrierCall, 'carrier' | 'secrets' | 'signal'>): Promise<CarrierResponse | CarrierError> {
    const gate = this.kit.gates.gate(context.credentialKey, this.limits);
    return this.kit.http.call({
      ...call,
      carrier: this.record.id,
      secrets: context.secrets,
      signal: context.signal,
      // Every request of this credential is paced and counted when it is sent, retries included.
      pace: (signal) => gate.pace(context.waitSignal && context.signal === context.waitFor ? context.waitSignal : signal),
      sent: () => gate.sent(),
    });
  }

  /**
   * Bearer authorization from the token cache: `issue` runs once per credential until the token nears
   * its expiry, however many calls share it; a 401 drops the token and the call is retried once.
   */
  protected bearer(context: CallContext, issue: () => Promise<IssuedToken | CarrierError>): CallAuth {
    let current: string | null = null;
    return {
      headers: async () => {
        const token = await this.kit.tokens.get(context.credentialKey, issue);
        if (typeof token !== 'string') return token;
        current = token;
        if (!context.secrets.includes(token)) context.secrets.push(token);
        return { authorization: `Bearer ${token}` };
      },
      invalidate: () => {
        if (current) this.kit.tokens.invalidate(context.credentialKey, current);
      },
    };
  }

  /** A throttle the carrier answered (not one of our own holds) pauses the whole credential. */
  private heed(gate: CredentialGate, answer: unknown): void {
    const error = answer as Partial<CarrierError> | undefined;
    if (!error || typeof error !== 'object' || error.status !== 'error' || !error.throttled || error.held) return;
    const until = error.retry_after_seconds !== undefined ? this.kit.now() + error.retry_after_seconds * 1000 : undefined;
    gate.pause(error.throttled, until);
  }

  /**
   * Runs a call other than tracking (a proof-of-delivery download, a subscription) within the credential's
   * limits: it waits for a slot and the rate like a tracking call, and a pause answers for it.
   */
  protected async gated<T>(context: CallContext, call: () => Promise<T | CarrierError>): Promise<T | CarrierError> {
    const gate = this.kit.gates.gate(context.credentialKey, this.limits);
    const outcome = await gate.run(call, context.signal);
    if (outcome && typeof outcome === 'object' && ('paused' in outcome || 'aborted' in outcome)) {
      return heldBack(this.record.name, 'paused' in outcome ? outcome : 'aborted', this.kit.now());
    }
    const result = outcome as T | CarrierError;
    this.heed(gate, result);
    return result;
  }

  /**
   * Runs `call` for `items` in parts of `size`, one part after another, each within the credential's limits
   * (`gated`) and with the settings in force (an aggregator stopping or re-tracking numbers): ok once every part
   * answered done (any text), else the first error. Never throws: what it throws is a retryable error of `what`.
   */
  protected async inParts<T>(
    items: readonly T[],
    size: number,
    settings: CarrierSettings,
    options: { now: Date; signal?: AbortSignal },
    what: string,
    call: (part: T[], context: CallContext) => Promise<string | CarrierError>,
  ): Promise<{ status: 'ok' } | CarrierError> {
    try {
      const context = this.prepare(settings, { now: options.now, signal: options.signal });
      if ('retryable' in context) return context;
      for (let i = 0; i < items.length; i += size) {
        const outcome = await this.gated(context, () => call(items.slice(i, i + size), context));
        if (typeof outcome !== 'string') return outcome;
      }
      return { status: 'ok' };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { status: 'error', retryable: true, message: `${this.record.name} ${what} failed: ${message.slice(0, 200)}` };
    }
  }

  /** The event key of a carrier code (composite codes first), counting codes the table lacks. */
  protected code(table: CodeTable, codes: ReadonlyArray<string | null | undefined>) {
    return mapCode(table, codes, { carrier: this.record.id, metrics: this.kit.metrics });
  }

  /**
   * A failure for a carrier answer the adapter cannot read (e.g. a 400 or an unexpected body). Retryable
   * for a 5xx, and for a 2xx whose body is not what the carrier documents (a proxy's page, a truncated body).
   */
  protected unreadable(context: CallContext, response: CarrierResponse, what = 'answer'): CarrierError {
    const text = response.text().replace(/\s+/g, ' ').trim().slice(0, 200);
    let message = `${this.record.name} ${what} could not be read (HTTP ${response.status})${text ? `: ${text}` : ''}`;
    for (const secret of context.secrets) if (secret.length >= 4) message = message.split(secret).join('[redacted]');
    return { status: 'error', retryable: response.status >= 500 || response.status < 300, message };
  }

  private context(settings: Record<string, unknown>, options: TrackOptions): CallContext {
    const environment = environmentOf(settings);
    const baseUrl = this.kit.operator.baseUrl(this.record.id) ?? this.baseUrls[environment] ?? this.baseUrls.production;
    const secrets = Object.entries(settings)
      .filter(([name, value]) => typeof value === 'string' && (name === 'client_id' || isSecret(this.settingsSchema.properties[name])))
      .map(([, value]) => value as string);
    const waitSignal = options.waitMs === undefined ? undefined : deadline(Math.max(1, options.waitMs), options.signal);
    if (waitSignal) setMaxListeners(0, waitSignal);
    return {
      settings,
      environment,
      baseUrl,
      signal: options.signal,
      now: options.now,
      secrets,
      credentialKey: this.credentialKey(settings),
      ...(waitSignal ? { waitSignal, waitFor: options.signal ?? null } : {}),
    };
  }

  private async safeBatch(batch: string[], context: CallContext): Promise<TrackResult[] | CarrierError> {
    try {
      return await this.trackBatch(batch, context);
    } catch (error) {
      // The contract says adapters never throw; a mapping bug becomes a retryable failure, its message kept short.
      const message = error instanceof Error ? error.message : String(error);
      let text = `${this.record.name} answer could not be mapped: ${message.slice(0, 200)}`;
      for (const secret of context.secrets) if (secret.length >= 4) text = text.split(secret).join('[redacted]');
      return { status: 'error', retryable: true, message: text };
    }
  }

  /**
   * `unchanged` when a number's carrier data (its body, or its entry in a batch answer, before any mapping) is
   * what the caller's stored answer was made from; else null, and the data's fingerprint goes with the answer
   * the adapter maps from it. An adapter asks this once per number, with all the data its mapper reads for it.
   */
  protected unchangedAnswer(context: CallContext, trackingNumber: string, data: Uint8Array | string | object): TrackResult | null {
    return context.answers?.same(trackingNumber, data) ? { status: 'unchanged', tracking_number: trackingNumber } : null;
  }

  /**
   * A batch answer mapped entry by entry (`mapSplitAnswer`): the entries `locate` finds in the text as received,
   * those that are the stored answers' data answered `unchanged` without being parsed, the others parsed and
   * mapped by `map`. Null when the answer cannot be read so: the adapter then maps it whole.
   */
  protected mapByEntry(
    context: CallContext,
    response: CarrierResponse,
    numbers: readonly string[],
    locate: (text: string) => RawEntry[] | null,
    map: (parsed: unknown[], numbers: string[]) => TrackResult[] | null,
  ): TrackResult[] | null {
    if (!context.answers) return null;
    const text = response.text();
    return mapSplitAnswer(text, locate(text), numbers, context.answers, map);
  }

  /** `unchangedAnswer` for mappers of batch answers, given each number's entry. */
  protected sameAnswer(context: CallContext): SameAnswer {
    return (trackingNumber, data) => context.answers?.same(trackingNumber, data) ?? false;
  }

  /** Events oldest first whatever order the carrier used (the carrier's order breaks ties), with the fingerprint of their data. */
  private finished(result: TrackResult, answers: KnownAnswers): TrackResult {
    if (result.status !== 'ok' && result.status !== 'unchanged') return result;
    const fingerprint = answers.fingerprintOf(result.tracking_number);
    if (result.status === 'unchanged') return { ...result, fingerprint };
    const ordered = { ...result, events: oldestFirst(result.events) };
    if (fingerprint) ordered.fingerprint = fingerprint;
    return ordered;
  }
}

/**
 * Event times as parsed while an answer is mapped and ordered, kept on the event itself (a property that is
 * neither enumerable nor serialized): storing it parses none again, and a property costs less than a WeakMap's
 * entry, made and collected for every event of every answer.
 */
const PARSED_TIME = Symbol('parsed event time');
interface ParsedTime {
  time: string;
  timezone: string | null | undefined;
  parsed: EventTimeResult;
}
type WithParsedTime = CarrierEvent & { [PARSED_TIME]?: ParsedTime };

/** `parseEventTime` of an event's time and timezone, parsed once per event (again only if either changed). */
export function eventTimeOf(event: CarrierEvent): EventTimeResult {
  const known = (event as WithParsedTime)[PARSED_TIME];
  if (known && known.time === event.time && known.timezone === event.timezone) return known.parsed;
  const parsed = parseEventTime(event.time, { timezone: event.timezone });
  const entry: ParsedTime = { time: event.time, timezone: event.timezone, parsed };
  if (known) (event as WithParsedTime)[PARSED_TIME] = entry;
  else if (Object.isExtensible(event)) Object.defineProperty(event, PARSED_TIME, { value: entry, writable: true });
  return parsed;
}

/** Sorts events oldest first by the instant their time stands for; stable for equal instants. */
export function oldestFirst(events: readonly CarrierEvent[]): CarrierEvent[] {
  let sorted = true;
  let last = '';
  const keyed = events.map((event, index) => {
    const parsed = eventTimeOf(event);
    const utc = parsed.ok ? parsed.time.utc : '';
    if (utc < last) sorted = false;
    last = utc;
    return { event, index, utc };
  });
  // Most carriers list oldest first already: then the order stands as it is.
  if (sorted) return [...events];
  keyed.sort((a, b) => (a.utc === b.utc ? a.index - b.index : a.utc < b.utc ? -1 : 1));
  return keyed.map((k) => k.event);
}
