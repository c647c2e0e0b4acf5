/** What Waybill knows of one of 17TRACK's carriers. */
export interface Trk17tCourier {
  /** Waybill's adapter of the same carrier. */
  carrier_id: string;
  /** The name 17TRACK's carrier list gives it. */
  name: string;
}

/**
 * 17TRACK carrier keys of carriers Waybill has an adapter of its own for, typed in from 17TRACK's published
 * carrier list (`res.17track.net/asset/carrier/info/apicarrier.all.json`, the list its error -18019903 points
 * to; read as copied on 2025-08-17 into the public repository lancerdia/lancerfile). Only the networks Waybill's
 * adapter covers are listed: a national branch its adapter does not track (InPost UK, DPD UK, GLS US…) keeps
 * 17TRACK's name and no Waybill id. docs/carriers/trk17t.md has the table.
 */
export const TRK17T_COURIERS: Readonly<Record<string, Trk17tCourier>> = {
  '100002': { carrier_id: 'upsglb', name: 'UPS' },
  '100003': { carrier_id: 'fdxglb', name: 'FedEx' },
  '21051': { carrier_id: 'uspsus', name: 'USPS' },
  '100001': { carrier_id: 'dhlglb', name: 'DHL Express' },
  '100047': { carrier_id: 'dhlglb', name: 'DHL Parcel (NL)' },
  '100226': { carrier_id: 'dhlglb', name: 'DHL Parcel (PL)' },
  '100152': { carrier_id: 'dhlglb', name: 'DHL Parcel (UK)' },
  '7041': { carrier_id: 'dhlpde', name: 'DHL Paket' },
  '14041': { carrier_id: 'postnl', name: 'PostNL' },
  '14044': { carrier_id: 'postnl', name: 'PostNL International Mail' },
  '6051': { carrier_id: 'lapost', name: 'La Poste (Colissimo)' },
  '100273': { carrier_id: 'lapost', name: 'Chronopost' },
  '100005': { carrier_id: 'glsglb', name: 'GLS' },
  '101109': { carrier_id: 'glsglb', name: 'GLS Group' },
  '11031': { carrier_id: 'royalm', name: 'Royal Mail' },
  '3041': { carrier_id: 'canpos', name: 'Canada Post' },
  '1151': { carrier_id: 'auspos', name: 'Australia Post' },
  '19241': { carrier_id: 'postnd', name: 'PostNord Sweden' },
  '4011': { carrier_id: 'postnd', name: 'PostNord Danmark' },
  '100573': { carrier_id: 'postnd', name: 'PostNord (NO)' },
  '100574': { carrier_id: 'postnd', name: 'PostNord (FI)' },
  '100043': { carrier_id: 'inpost', name: 'InPost (PL)' },
  '100007': { carrier_id: 'dpdeur', name: 'DPD (DE)' },
  '100811': { carrier_id: 'dpdeur', name: 'DPD (NL)' },
  '100321': { carrier_id: 'dpdeur', name: 'DPD (BE)' },
  '100814': { carrier_id: 'dpdeur', name: 'DPD (LU)' },
};

/** The Waybill carrier id of a 17TRACK carrier key, or null. */
export function carrierIdOf(key: string): string | null {
  return TRK17T_COURIERS[key]?.carrier_id ?? null;
}
