/**
 * The carriers of the carrier-polling scenario, one entry each (a file of this folder, `LocalCarrier`): the seven
 * measured since the scenario began, and the adapters added since, each measured with the seven against the seven
 * alone (carrier-polling-all). A new adapter's local carrier is one more entry in `ADDED_CARRIERS`.
 */
import type { LocalCarrier } from '../local-carriers.js';
import { auspos } from './auspos.js';
import { canpos } from './canpos.js';
import { dhlglb } from './dhlglb.js';
import { dpdeur } from './dpdeur.js';
import { fdxglb } from './fdxglb.js';
import { glsglb } from './glsglb.js';
import { inpost } from './inpost.js';
import { lapost } from './lapost.js';
import { postnd } from './postnd.js';
import { postnl } from './postnl.js';
import { royalm } from './royalm.js';
import { ship24 } from './ship24.js';
import { trk17t } from './trk17t.js';
import { upsglb } from './upsglb.js';
import { uspsus } from './uspsus.js';

/** The seven carriers polled over HTTP, in the order shipments are dealt to them: the baseline of the added ones. */
export const SEVEN_CARRIERS: readonly LocalCarrier[] = [upsglb, dhlglb, fdxglb, postnl, lapost, glsglb, uspsus];

/** The adapters added after the seven, in the order shipments are dealt to them after the seven. */
export const ADDED_CARRIERS: readonly LocalCarrier[] = [inpost, postnd, royalm, dpdeur, canpos, auspos, ship24, trk17t];

const ALL = new Map([...SEVEN_CARRIERS, ...ADDED_CARRIERS].map((carrier) => [carrier.id, carrier]));

/** Every carrier with a local carrier, by id. */
export function localCarrier(id: string): LocalCarrier | undefined {
  return ALL.get(id);
}

export function localCarrierIds(): string[] {
  return [...ALL.keys()];
}
