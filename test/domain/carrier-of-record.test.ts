import { describe, expect, it } from 'vitest';
import type { CarrierRecord } from '../../src/carriers/carrier.js';
import { carrierOfRecordIn, recordCarrierOfRecord, shownCarrier } from '../../src/domain/shipments/carrier-of-record.js';

const record = (id: string, name: string): CarrierRecord => ({
  id,
  name,
  country_iso: [],
  language: null,
  supported_languages: [],
  contact: null,
  site_link: null,
});
const known: Record<string, CarrierRecord> = { ship24: record('ship24', 'Ship24'), royalm: record('royalm', 'Royal Mail') };
const lookup = (id: string | null) => (id ? (known[id] ?? null) : null);

describe('the carrier of record', () => {
  it("is shown as Waybill's own carrier where the aggregator's code maps to one, else under the courier's name", () => {
    expect(shownCarrier('ship24', {}, lookup)?.name).toBe('Ship24');
    const mapped = { carrier_of_record: { name: 'Royal Mail Group', courier_code: 'royal-mail', carrier_id: 'royalm' } };
    expect(shownCarrier('ship24', mapped, lookup)).toEqual(known.royalm);
    const unmapped = { carrier_of_record: { name: 'Posti', courier_code: 'posti', carrier_id: null } };
    expect(shownCarrier('ship24', unmapped, lookup)).toMatchObject({ id: 'ship24', name: 'Posti' });
  });

  it('is stored with its code in additional_info.courier_code, unless the merchant set that key; once', () => {
    const body: Record<string, unknown> = { additional_info: { warehouse: 'B2' } };
    const courier = { name: 'Royal Mail', courier_code: 'royal-mail', carrier_id: 'royalm' };
    expect(recordCarrierOfRecord(body, courier)).toBe(true);
    expect(carrierOfRecordIn(body)).toEqual(courier);
    expect(body.additional_info).toEqual({ warehouse: 'B2', courier_code: 'royal-mail' });
    expect(recordCarrierOfRecord(body, courier)).toBe(false);
    // A later courier (a hand-over) replaces ours; the merchant's own value stays.
    expect(recordCarrierOfRecord(body, { name: 'Evri', courier_code: 'evri', carrier_id: null })).toBe(true);
    expect(body.additional_info).toEqual({ warehouse: 'B2', courier_code: 'evri' });
    const theirs: Record<string, unknown> = { additional_info: { courier_code: 'mine' } };
    recordCarrierOfRecord(theirs, courier);
    expect(theirs.additional_info).toEqual({ courier_code: 'mine' });
  });
});
