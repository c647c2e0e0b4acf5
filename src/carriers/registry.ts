import { carrierAdapters } from './adapters.js';
import type { CarrierAdapter } from './carrier.js';
import { type CarrierToolkit, carrierToolkit } from './sdk/toolkit.js';

/** The carriers this service can talk to, by their 6-character id. */
export class CarrierRegistry {
  private readonly byId = new Map<string, CarrierAdapter>();

  constructor(adapters: CarrierAdapter[]) {
    for (const adapter of adapters) {
      if (!/^[a-z0-9]{6}$/.test(adapter.record.id)) throw new Error(`carrier id must be 6 characters: ${adapter.record.id}`);
      if (this.byId.has(adapter.record.id)) throw new Error(`carrier registered twice: ${adapter.record.id}`);
      this.byId.set(adapter.record.id, adapter);
    }
  }

  get(id: string): CarrierAdapter | undefined {
    return this.byId.get(id);
  }

  ids(): string[] {
    return [...this.byId.keys()];
  }

  all(): CarrierAdapter[] {
    return [...this.byId.values()];
  }
}

/** Every carrier this build knows, sharing one toolkit (transport, token cache, limits, operator settings). */
export function defaultCarrierRegistry(kit: CarrierToolkit = carrierToolkit()): CarrierRegistry {
  return new CarrierRegistry(carrierAdapters(kit));
}
