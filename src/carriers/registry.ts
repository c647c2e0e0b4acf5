import type { CarrierAdapter } from './carrier.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';

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
}

export function defaultCarrierRegistry(): CarrierRegistry {
  return new CarrierRegistry([new SandboxCarrier()]);
}
