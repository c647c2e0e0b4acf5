import { AusPostCarrier } from './auspos/auspos.carrier.js';
import { CanadaPostCarrier } from './canpos/canpos.carrier.js';
import type { CarrierAdapter } from './carrier.js';
import { DhlUnifiedCarrier } from './dhlglb/dhlglb.carrier.js';
import { DhlParcelDeCarrier } from './dhlpde/dhlpde.carrier.js';
import { DpdCarrier } from './dpdeur/dpdeur.carrier.js';
import { FedexCarrier } from './fdxglb/fdxglb.carrier.js';
import { GlsCarrier } from './glsglb/glsglb.carrier.js';
import { InpostCarrier } from './inpost/inpost.carrier.js';
import { LaPosteCarrier } from './lapost/lapost.carrier.js';
import { PostnordCarrier } from './postnd/postnd.carrier.js';
import { PostnlCarrier } from './postnl/postnl.carrier.js';
import { RoyalMailCarrier } from './royalm/royalm.carrier.js';
import { SandboxCarrier } from './sandbox/sandbox.carrier.js';
import type { CarrierToolkit } from './sdk/toolkit.js';
import { Ship24Carrier } from './ship24/ship24.carrier.js';
import { Trk17tCarrier } from './trk17t/trk17t.carrier.js';
import { UpsCarrier } from './upsglb/upsglb.carrier.js';
import { UspsCarrier } from './uspsus/uspsus.carrier.js';

/** The adapters of this build, in the order the catalogue lists them. One line per carrier. */
export function carrierAdapters(kit: CarrierToolkit): CarrierAdapter[] {
  return [
    new SandboxCarrier(),
    new UpsCarrier(kit),
    new DhlUnifiedCarrier(kit),
    new FedexCarrier(kit),
    new PostnlCarrier(kit),
    new LaPosteCarrier(kit),
    new GlsCarrier(kit),
    new UspsCarrier(kit),
    new DhlParcelDeCarrier(kit),
    new InpostCarrier(kit),
    new CanadaPostCarrier(kit),
    new PostnordCarrier(kit),
    new AusPostCarrier(kit),
    new RoyalMailCarrier(kit),
    new DpdCarrier(kit),
    new Ship24Carrier(kit),
    new Trk17tCarrier(kit),
  ];
}
