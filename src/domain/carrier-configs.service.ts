import { registersNumbers } from '../carriers/aggregator.js';
import type { CarrierAdapter, CarrierRecord } from '../carriers/carrier.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { checkSettings, maskSettings, mergeSettings } from '../carriers/sdk/settings.js';
import { type Clock, nowMs } from '../clock.js';
import type { CarrierConfigRow, CarrierConfigsRepository } from '../db/repositories/carrier-configs.repository.js';
import type { Secrets } from '../secrets.js';
import { ConflictError, FieldErrorCollector, NotFoundError, ValidationError } from './errors.js';

export type BookingKind = 'outbound' | 'return';

/** A carrier configuration as merchants see it: never its settings or credentials. */
export interface CarrierConfigView {
  carrier_reference: string;
  carrier: CarrierRecord;
  booking: { outbound: boolean; return: boolean };
  /** The account's fallback for numbers no other configuration claims (aggregators only). */
  fallback: boolean;
  /** The settings as stored, secrets masked: merchants see which are set, never their values. */
  settings: Record<string, unknown>;
  created_date: string;
  updated_date: string;
}

/** A change to a configuration: `booking` replaces; `settings` is a merge patch (a value replaces, null removes). */
export interface CarrierConfigPatch {
  booking?: BookingKind[];
  fallback?: boolean;
  settings?: Record<string, unknown>;
}

export interface CarrierConfigInput {
  carrier_reference: string;
  carrier_id: string;
  booking?: BookingKind[];
  fallback?: boolean;
  settings?: Record<string, unknown>;
}

/** An account's configurations as `list` answered them, and when they were read. */
interface ListedConfigs {
  views: readonly CarrierConfigView[];
  readAt: number;
}

/** Accounts whose lists are kept at most; past it the oldest are dropped. */
const LISTS_KEPT = 10_000;

export class CarrierConfigsService {
  /**
   * Each account's list as last read, for `list`: merchants read it on every call of GET /v5/carrier-configs/,
   * and it changes only through this service. A change made here drops the account's list at once; one made
   * by another process is seen once the list is `cacheMillis` old.
   */
  private readonly listed = new Map<number, ListedConfigs>();
  /** Counts the changes made here: a list read while one was made is not kept (it may be from before it). */
  private changes = 0;

  constructor(
    private readonly repository: CarrierConfigsRepository,
    private readonly registry: CarrierRegistry,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    /** How long a list read from the database is answered again (0: read on every call). */
    private readonly cacheMillis = 0,
  ) {}

  async add(accountId: number, input: CarrierConfigInput): Promise<CarrierConfigView> {
    const adapter = this.registry.get(input.carrier_id);
    if (!adapter) {
      throw ValidationError.at(['carrier_id'], `Unknown carrier "${input.carrier_id}". Known carriers: ${this.registry.ids().join(', ')}.`);
    }
    this.check(adapter, input.settings ?? {});
    if (input.fallback) await this.checkFallback(accountId, adapter, input.carrier_reference);
    if (await this.repository.find(accountId, input.carrier_reference)) {
      throw new ConflictError(`carrier_reference "${input.carrier_reference}" is already configured in this account`);
    }
    const at = this.clock.now().toISOString();
    const booking = new Set(input.booking ?? []);
    const row = await this.changing(accountId, () =>
      this.repository.insert({
        account_id: accountId,
        carrier_reference: input.carrier_reference,
        carrier_id: input.carrier_id,
        booking_outbound: booking.has('outbound') ? 1 : 0,
        booking_return: booking.has('return') ? 1 : 0,
        settings_sealed: input.settings ? this.secrets.encrypt(JSON.stringify(input.settings)) : null,
        push_token_hash: null,
        fallback: input.fallback ? 1 : 0,
        created_at: at,
        updated_at: at,
      }),
    );
    return this.view(row);
  }

  /** Changes booking kinds and rotates or changes settings; the result is checked like a new configuration. */
  async update(accountId: number, carrierReference: string, patch: CarrierConfigPatch): Promise<CarrierConfigView> {
    const current = await this.resolve(accountId, carrierReference);
    if (!current) throw new NotFoundError(`No carrier configuration "${carrierReference}" in this account`);
    const adapter = this.registry.get(current.carrier_id);
    const settings = patch.settings ? mergeSettings(current.settings, patch.settings) : current.settings;
    if (adapter && patch.settings) this.check(adapter, settings);
    if (patch.fallback && current.fallback !== 1) await this.checkFallback(accountId, adapter, carrierReference);
    const booking = patch.booking ? new Set(patch.booking) : null;
    const row = await this.changing(accountId, () =>
      this.repository.update(accountId, carrierReference, {
        ...(patch.settings
          ? { settings_sealed: Object.keys(settings).length > 0 ? this.secrets.encrypt(JSON.stringify(settings)) : null }
          : {}),
        ...(booking ? { booking_outbound: booking.has('outbound') ? 1 : 0, booking_return: booking.has('return') ? 1 : 0 } : {}),
        ...(patch.fallback !== undefined ? { fallback: patch.fallback ? 1 : 0 } : {}),
        updated_at: this.clock.now().toISOString(),
      }),
    );
    if (!row) throw new NotFoundError(`No carrier configuration "${carrierReference}" in this account`);
    return this.view(row);
  }

  /**
   * A fallback must be an aggregator's configuration (a carrier tracks only its own numbers), and an account has
   * one at most: with two, which tracks a number would be a guess.
   */
  private async checkFallback(accountId: number, adapter: CarrierAdapter | undefined, carrierReference: string): Promise<void> {
    if (!adapter || !registersNumbers(adapter)) {
      throw ValidationError.at(['fallback'], 'Only a tracking aggregator (ship24, trk17t) can track the numbers no other carrier claims.');
    }
    const other = (await this.repository.listForAccount(accountId)).find(
      (row) => row.fallback === 1 && row.carrier_reference !== carrierReference,
    );
    if (other) {
      throw ValidationError.at(['fallback'], `"${other.carrier_reference}" is the account's fallback already; unset it first.`);
    }
  }

  /** Refuses settings the carrier's schema does not accept, each problem on its `settings.<name>` path. */
  private check(adapter: CarrierAdapter, settings: Record<string, unknown>): void {
    const effective = adapter.effectiveSettings ? adapter.effectiveSettings(settings) : settings;
    const problems = checkSettings(adapter.settingsSchema, effective);
    if (problems.length === 0) return;
    const errors = new FieldErrorCollector();
    for (const problem of problems) errors.add(problem.path, problem.message);
    throw new ValidationError(errors.result());
  }

  /**
   * The account's configurations, as merchants see them. Answered from the list kept for the account while it
   * is younger than `cacheMillis` (see `listed`), unless `fresh`; the views are frozen, as they are shared.
   */
  async list(accountId: number, options: { fresh?: boolean } = {}): Promise<readonly CarrierConfigView[]> {
    const kept = options.fresh ? undefined : this.keptList(accountId);
    if (kept) return kept;
    const now = this.clock.now().getTime();
    const changesBefore = this.changes;
    const views = Object.freeze((await this.repository.listForAccount(accountId)).map((row) => frozenView(this.view(row))));
    if (this.cacheMillis > 0 && this.changes === changesBefore) {
      this.listed.delete(accountId);
      if (this.listed.size >= LISTS_KEPT) this.listed.delete(this.listed.keys().next().value as number);
      this.listed.set(accountId, { views, readAt: now });
    }
    return views;
  }

  /** `list` when it can answer without reading the database: the account's kept list, if young enough. */
  keptList(accountId: number): readonly CarrierConfigView[] | undefined {
    const kept = this.listed.get(accountId);
    return kept && nowMs(this.clock) - kept.readAt < this.cacheMillis ? kept.views : undefined;
  }

  /** Runs a change of an account's configurations; its kept list is dropped once the change is made (or failed). */
  private async changing<T>(accountId: number, change: () => Promise<T>): Promise<T> {
    try {
      return await change();
    } finally {
      this.changes++;
      this.listed.delete(accountId);
    }
  }

  async remove(accountId: number, carrierReference: string): Promise<void> {
    if (!(await this.changing(accountId, () => this.repository.delete(accountId, carrierReference)))) {
      throw new NotFoundError(`No carrier configuration "${carrierReference}" in this account`);
    }
  }

  /** The configuration with its decrypted settings, for the carrier adapters only. */
  async resolve(
    accountId: number,
    carrierReference: string,
  ): Promise<(CarrierConfigRow & { settings: Record<string, unknown> }) | undefined> {
    const row = await this.repository.find(accountId, carrierReference);
    if (!row) return undefined;
    return { ...row, settings: row.settings_sealed ? JSON.parse(this.secrets.decrypt(row.settings_sealed)) : {} };
  }

  private view(row: CarrierConfigRow): CarrierConfigView {
    const adapter = this.registry.get(row.carrier_id);
    const carrier: CarrierRecord = adapter?.record ?? {
      id: row.carrier_id,
      name: row.carrier_id,
      country_iso: [],
      language: null,
      supported_languages: [],
      contact: null,
      site_link: null,
    };
    const settings: Record<string, unknown> = row.settings_sealed ? JSON.parse(this.secrets.decrypt(row.settings_sealed)) : {};
    const masked = adapter
      ? maskSettings(adapter.settingsSchema, settings)
      : Object.fromEntries(Object.keys(settings).map((k) => [k, '********']));
    return {
      carrier_reference: row.carrier_reference,
      carrier,
      booking: { outbound: row.booking_outbound === 1, return: row.booking_return === 1 },
      fallback: row.fallback === 1,
      settings: masked,
      created_date: row.created_at,
      updated_date: row.updated_at,
    };
  }
}

/** A view that can be handed to several callers at once: nothing in it can be changed. */
function frozenView(view: CarrierConfigView): CarrierConfigView {
  Object.freeze(view.booking);
  Object.freeze(view.settings);
  return Object.freeze(view);
}
