/**
 * A lane: the carrier, its service, and where a parcel goes from and to (country and postal-code prefix).
 * Transit histograms are kept per lane cell at several levels, finest first, so that a prediction backs off
 * to a coarser cell when the finer one has too few shipments (docs/delivery-intelligence.md, "Method").
 */

type Json = Record<string, any>;

export interface Lane {
  carrierId: string;
  /** `shipping_service` as the merchant wrote it, trimmed and lower-cased ('' when none). */
  service: string;
  originCountry: string;
  /** The origin postal code, upper-case, letters and digits only ('' when unknown). */
  originPostal: string;
  destinationCountry: string;
  destinationPostal: string;
}

/** Cell levels, finest first. L5 (the carrier's published promise) is the cold-start table, not a cell. */
export const LANE_LEVELS = 5;

function postal(value: unknown): string {
  return typeof value === 'string' ? value.toUpperCase().replace(/[^0-9A-Z]/g, '') : '';
}

function country(address: Json | null | undefined): string {
  const code = address?.country_code;
  return typeof code === 'string' && code.length === 2 ? code.toUpperCase() : '';
}

/** The sender address, else the from address; the recipient address, else the to address. */
export function laneOf(carrierId: string, body: Json): Lane {
  const origin = body.sender_address ?? body.from_address ?? null;
  const destination = body.recipient_address ?? body.to_address ?? null;
  const service = typeof body.shipping_service === 'string' ? body.shipping_service.trim().toLowerCase() : '';
  return {
    carrierId,
    service,
    originCountry: country(origin),
    originPostal: postal(origin?.postal_code),
    destinationCountry: country(destination),
    destinationPostal: postal(destination?.postal_code),
  };
}

/**
 * The lane's cell keys, finest first:
 * 0 carrier, service, origin country + 3-character prefix, destination country + 3-character prefix;
 * 1 the same with 2-character prefixes; 2 carrier, service, origin country, destination country + 2 characters;
 * 3 carrier, service, origin and destination country; 4 carrier and service.
 * A level whose parts are unknown (no postal code, no country) is left out (null): it would pool unlike lanes.
 */
export function cellKeysOf(lane: Lane): Array<string | null> {
  const base = `${lane.carrierId}|${lane.service}`;
  const countries = lane.originCountry !== '' && lane.destinationCountry !== '';
  const o3 = lane.originPostal.slice(0, 3);
  const d3 = lane.destinationPostal.slice(0, 3);
  const o2 = lane.originPostal.slice(0, 2);
  const d2 = lane.destinationPostal.slice(0, 2);
  return [
    countries && o3.length === 3 && d3.length === 3 ? `0|${base}|${lane.originCountry}${o3}|${lane.destinationCountry}${d3}` : null,
    countries && o2.length === 2 && d2.length === 2 ? `1|${base}|${lane.originCountry}${o2}|${lane.destinationCountry}${d2}` : null,
    countries && d2.length === 2 ? `2|${base}|${lane.originCountry}|${lane.destinationCountry}${d2}` : null,
    countries ? `3|${base}|${lane.originCountry}|${lane.destinationCountry}` : null,
    `4|${base}`,
  ];
}

/**
 * The lane as delivery analytics group it: carrier configuration, service, origin country, destination
 * country and 2-character destination prefix. `carrierReference` is the configuration's reference ('' when none).
 * The parts as a JSON array: a reference or a service may hold any character, and no two lanes share a key.
 */
export function analyticsLaneKey(carrierReference: string, lane: Lane): string {
  return JSON.stringify([
    carrierReference,
    lane.carrierId,
    lane.service,
    lane.originCountry,
    lane.destinationCountry,
    lane.destinationPostal.slice(0, 2),
  ]);
}
