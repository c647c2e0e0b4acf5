import type { CarrierAdapter } from './carrier.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';
import type { CarrierToolkit } from './sdk/toolkit.js';
import { UspsCarrier } from './uspsus/uspsus.carrier.js';

/** The adapters of this build, in the order the catalogue lists them. One line per carrier. */
export function carrierAdapters(kit: CarrierToolkit): CarrierAdapter[] {
  return [new SandboxCarrier(), new UspsCarrier(kit)];
}
