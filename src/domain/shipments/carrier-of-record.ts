import type { CarrierOfRecord, CarrierRecord } from '../../carriers/carrier.js';

/**
 * The courier an aggregator names for a shipment (Royal Mail behind Ship24), as tracking stored it in the
 * shipment's body: shown as the shipment's carrier, so the details and the tracking page say who carries the
 * parcel rather than which service follows it.
 */
export function carrierOfRecordIn(body: Record<string, unknown>): CarrierOfRecord | null {
  const stored = body.carrier_of_record as Partial<CarrierOfRecord> | undefined;
  if (!stored || typeof stored !== 'object' || typeof stored.name !== 'string' || typeof stored.courier_code !== 'string') return null;
  return {
    name: stored.name,
    courier_code: stored.courier_code,
    carrier_id: typeof stored.carrier_id === 'string' ? stored.carrier_id : null,
  };
}

/**
 * The carrier a shipment shows: the carrier of record where an aggregator named one (Waybill's own record of that
 * carrier when the code maps to one, else the aggregator's record under the courier's name), else the record
 * of the configuration's carrier.
 */
export function shownCarrier(
  carrierId: string | null,
  body: Record<string, unknown>,
  lookup: (id: string | null) => CarrierRecord | null,
): CarrierRecord | null {
  const configured = lookup(carrierId);
  const record = carrierOfRecordIn(body);
  if (!record) return configured;
  const own = record.carrier_id ? lookup(record.carrier_id) : null;
  if (own) return own;
  return {
    id: carrierId ?? '',
    name: record.name,
    country_iso: [],
    language: null,
    supported_languages: [],
    contact: null,
    site_link: null,
  };
}

/**
 * The body's changes for an answer naming `record`: the record itself, and its code in `additional_info.courier_code`
 * (unless the merchant set that key to something else). False when the body holds them already.
 */
export function recordCarrierOfRecord(body: Record<string, unknown>, record: CarrierOfRecord): boolean {
  const stored = carrierOfRecordIn(body);
  if (stored && stored.name === record.name && stored.courier_code === record.courier_code && stored.carrier_id === record.carrier_id) {
    return false;
  }
  body.carrier_of_record = { name: record.name, courier_code: record.courier_code, carrier_id: record.carrier_id };
  const info = (body.additional_info && typeof body.additional_info === 'object' ? body.additional_info : {}) as Record<string, unknown>;
  const theirs = info.courier_code !== undefined && info.courier_code !== stored?.courier_code;
  if (!theirs && Object.keys(info).length < 100) body.additional_info = { ...info, courier_code: record.courier_code.slice(0, 150) };
  return true;
}

/** Removes the carrier of record (and the courier code it wrote) from a body whose number or carrier changed. */
export function forgetCarrierOfRecord(body: Record<string, unknown>): void {
  const stored = carrierOfRecordIn(body);
  if (!stored) return;
  delete body.carrier_of_record;
  const info = body.additional_info as Record<string, unknown> | undefined;
  if (info?.courier_code === stored.courier_code) {
    const { courier_code: _code, ...rest } = info;
    if (Object.keys(rest).length > 0) body.additional_info = rest;
    else delete body.additional_info;
  }
}
