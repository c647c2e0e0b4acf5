import type { CarrierAdapter, CarrierRecord } from '../carriers/carrier.js';
import type { CarrierRegistry } from '../carriers/registry.js';
import { checkSettings, maskSettings, mergeSettings } from '../carriers/sdk/settings.js';
import type { Clock } from '../clock.js';
import type { CarrierConfigRow, CarrierConfigsRepository } from '../db/repositories/carrier-configs.repository.js';
import type { Secrets } from '../secrets.js';
import { ConflictError, FieldErrorCollector, NotFoundError, ValidationError } from './errors.js';

export type BookingKind = 'outbound' | 'return';

/** A carrier configuration as merchants see it: never its settings or credentials. */
export interface CarrierConfigView {
  carrier_reference: string;
  carrier: CarrierRecord;
  booking: { outbound: boolean; return: boolean };
  /** The settings as stored, secrets masked: merchants see which are set, never their values. */
  settings: Record<string, unknown>;
  created_date: string;
  updated_date: string;
}

/** A change to a configuration: `booking` replaces; `settings` is a merge patch (a value replaces, null removes). */
export interface CarrierConfigPatch {
  booking?: BookingKind[];
  settings?: Record<string, unknown>;
}

export interface CarrierConfigInput {
  carrier_reference: string;
  carrier_id: string;
  booking?: BookingKind[];
  settings?: Record<string, unknown>;
}

export class CarrierConfigsService {
  constructor(
    private readonly repository: CarrierConfigsRepository,
    private readonly registry: CarrierRegistry,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
  ) {}

  async add(accountId: number, input: CarrierConfigInput): Promise<CarrierConfigView> {
    const adapter = this.registry.get(input.carrier_id);
    if (!adapter) {
      throw ValidationError.at(['carrier_id'], `Unknown carrier "${input.carrier_id}". Known carriers: ${this.registry.ids().join(', ')}.`);
    }
    this.check(adapter, input.settings ?? {});
    if (await this.repository.find(accountId, input.carrier_reference)) {
      throw new ConflictError(`carrier_reference "${input.carrier_reference}" is already configured in this account`);
    }
    const at = this.clock.now().toISOString();
    const booking = new Set(input.booking ?? []);
    const row = await this.repository.insert({
      account_id: accountId,
      carrier_reference: input.carrier_reference,
      carrier_id: input.carrier_id,
      booking_outbound: booking.has('outbound') ? 1 : 0,
      booking_return: booking.has('return') ? 1 : 0,
      settings_sealed: input.settings ? this.secrets.encrypt(JSON.stringify(input.settings)) : null,
      push_token_hash: null,
      created_at: at,
      updated_at: at,
    });
    return this.view(row);
  }

  /** Changes booking kinds and rotates or changes settings; the result is checked like a new configuration. */
  async update(accountId: number, carrierReference: string, patch: CarrierConfigPatch): Promise<CarrierConfigView> {
    const current = await this.resolve(accountId, carrierReference);
    if (!current) throw new NotFoundError(`No carrier configuration "${carrierReference}" in this account`);
    const adapter = this.registry.get(current.carrier_id);
    const settings = patch.settings ? mergeSettings(current.settings, patch.settings) : current.settings;
    if (adapter && patch.settings) this.check(adapter, settings);
    const booking = patch.booking ? new Set(patch.booking) : null;
    const row = await this.repository.update(accountId, carrierReference, {
      ...(patch.settings
        ? { settings_sealed: Object.keys(settings).length > 0 ? this.secrets.encrypt(JSON.stringify(settings)) : null }
        : {}),
      ...(booking ? { booking_outbound: booking.has('outbound') ? 1 : 0, booking_return: booking.has('return') ? 1 : 0 } : {}),
      updated_at: this.clock.now().toISOString(),
    });
    if (!row) throw new NotFoundError(`No carrier configuration "${carrierReference}" in this account`);
    return this.view(row);
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

  async list(accountId: number): Promise<CarrierConfigView[]> {
    return (await this.repository.listForAccount(accountId)).map((row) => this.view(row));
  }

  async remove(accountId: number, carrierReference: string): Promise<void> {
    if (!(await this.repository.delete(accountId, carrierReference))) {
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
      settings: masked,
      created_date: row.created_at,
      updated_date: row.updated_at,
    };
  }
}
