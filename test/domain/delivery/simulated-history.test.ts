import { beforeAll, describe, expect, it } from 'vitest';
import { isEventKey, phaseOfEvent } from '../../../src/carriers/phases.js';
import { isValidTimeZone } from '../../../src/core/event-time.js';
import { calendarFor } from '../../../src/domain/delivery/carrier-calendars.js';
import {
  ADDRESS_ISSUE_SHARE,
  blackFriday,
  firstAttemptFailureOf,
  LOST_SHARE,
  laneModel,
  MONDAY_ON_TIME_DROP,
  PEAK_ON_TIME_DROP,
  RETURN_TO_SENDER_SHARE,
  type SimulatedShipment,
  STUCK_SHARE,
  seasonOf,
  simulateHistory,
} from '../../../src/domain/delivery/simulated-history.js';
import { workingDaysAfter } from '../../../src/domain/delivery/working-calendar.js';

const POSTAL_FORMATS: Record<string, RegExp> = {
  DE: /^\d{5}$/,
  FR: /^\d{5}$/,
  IT: /^\d{5}$/,
  ES: /^\d{5}$/,
  US: /^\d{5}$/,
  NL: /^\d{4} [A-Z]{2}$/,
  GB: /^[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}$/,
  BE: /^\d{4}$/,
  AT: /^\d{4}$/,
  PL: /^\d{2}-\d{3}$/,
  IE: /^[A-Z]\d{2} [A-Z\d]{4}$/,
};

const instant = (time: string) => Date.parse(time);
const localDate = (time: string) => time.slice(0, 10);
const ATTEMPT_PHASES = new Set(['delivered', 'failed_attempt', 'available_for_pickup']);

function within(actual: number, expected: number, tolerance: number): void {
  expect(Math.abs(actual - expected), `${actual} is not within ${tolerance} of ${expected}`).toBeLessThanOrEqual(tolerance);
}

describe('simulateHistory', () => {
  it('gives the same history for the same options, and another for another seed', () => {
    const options = { shipments: 300, weeks: 8, seed: 'same', end: '2025-10-31' };
    const first = simulateHistory(options);
    expect(simulateHistory(options)).toEqual(first);
    // A number and its text are the same seed (the CLI sends text).
    expect(simulateHistory({ ...options, seed: 7 })).toEqual(simulateHistory({ ...options, seed: '7' }));
    const other = simulateHistory({ ...options, seed: 'other' });
    expect(other).toHaveLength(300);
    expect(other.map((s) => s.tracking_number)).not.toEqual(first.map((s) => s.tracking_number));
    expect(other.map((s) => s.events)).not.toEqual(first.map((s) => s.events));
    expect(new Set(first.map((s) => s.tracking_number)).size).toBe(300);
  });

  it('refuses options it cannot honour', () => {
    expect(() => simulateHistory({ shipments: -1, weeks: 4, seed: 1, end: '2025-10-31' })).toThrow(RangeError);
    expect(() => simulateHistory({ shipments: 10, weeks: 0, seed: 1, end: '2025-10-31' })).toThrow(RangeError);
    expect(() => simulateHistory({ shipments: 10, weeks: 4, seed: 1, end: '31.10.2025' })).toThrow(RangeError);
  });

  describe('over 20,000 shipments across the peak season', () => {
    const end = '2025-12-31';
    const now = '2025-12-31T23:59:59.999Z';
    let history: SimulatedShipment[];
    beforeAll(() => {
      history = simulateHistory({ shipments: 20_000, weeks: 26, seed: 'shares', end });
    });

    it('has the outcome shares of its parameters', () => {
      const share = (outcome: string) => history.filter((s) => s.truth.outcome === outcome).length / history.length;
      // About four standard deviations of a binomial share at n = 20,000.
      within(share('lost'), LOST_SHARE, 0.0013);
      within(share('stuck'), STUCK_SHARE, 0.0018);
      within(share('returned'), RETURN_TO_SENDER_SHARE, 0.0026);
      within(share('address_issue'), ADDRESS_ISSUE_SHARE, 0.0022);

      const reached = history.filter((s) => s.truth.transit !== null);
      const failed = reached.filter((s) => s.truth.first_attempt_failed).length / reached.length;
      const expectedFailed =
        reached.reduce(
          (sum, s) => sum + firstAttemptFailureOf(s.carrier_id, s.recipient_address.country_code, s.sender_address.country_code),
          0,
        ) / reached.length;
      within(failed, expectedFailed, 0.0065);
      expect(failed).toBeGreaterThanOrEqual(0.03);
      expect(failed).toBeLessThanOrEqual(0.07);

      // Late (D > 0) as often as the lanes' on-time shares say, Monday and peak drops included.
      const late = history.filter((s) => s.truth.late).length / history.length;
      const expectedLate = history.reduce((sum, s) => sum + (1 - s.truth.on_time), 0) / history.length;
      within(late, expectedLate, 0.011);

      // Parcels with any issue: 6–10% (Parcel Monitor: GB→GB 5.97%, DE→DE 9.75%).
      const issues = history.filter(
        (s) =>
          s.truth.first_attempt_failed ||
          s.truth.outcome === 'lost' ||
          s.truth.outcome === 'stuck' ||
          s.events.some((e) => phaseOfEvent(e.event_key) === 'exception'),
      ).length;
      expect(issues / history.length).toBeGreaterThanOrEqual(0.06);
      expect(issues / history.length).toBeLessThanOrEqual(0.1);

      const domestic = history.filter((s) => s.sender_address.country_code === s.recipient_address.country_code).length;
      expect(domestic / history.length).toBeGreaterThan(0.75);
      expect(domestic / history.length).toBeLessThan(0.9);
    });

    it('draws transit from the lane model', () => {
      // DHL Paket in Germany off-peak, accepted Tuesday to Friday: b = 1, q = 0.85.
      const lane = history.filter(
        (s) =>
          s.carrier_id === 'dhlpde' &&
          s.recipient_address.country_code === 'DE' &&
          s.truth.transit !== null &&
          !seasonOf(s.truth.acceptance_date).peak &&
          new Date(`${s.truth.acceptance_date}T00:00:00Z`).getUTCDay() !== 1,
      );
      expect(lane.length).toBeGreaterThan(1500);
      const model = laneModel(lane[0], lane[0].truth.acceptance_date);
      expect(model).toMatchObject({ base: 1, onTime: 0.85, pi: 0.6 });
      const histogram = new Map<number, number>();
      for (const s of lane) histogram.set(s.truth.transit as number, (histogram.get(s.truth.transit as number) ?? 0) + 1);
      for (const t of [1, 2, 3]) within((histogram.get(t) ?? 0) / lane.length, model?.pmf[t] ?? 0, 0.025);
      const mean = lane.reduce((sum, s) => sum + (s.truth.transit as number), 0) / lane.length;
      within(mean, model?.mean ?? 0, 0.05);

      // Over every lane, each share of T ≤ the model's P10, P50, P90 and P95 as the models say on average.
      for (const p of [0.1, 0.5, 0.9, 0.95]) {
        let observed = 0;
        let expected = 0;
        let count = 0;
        for (const s of history) {
          if (s.truth.transit === null) continue;
          const m = laneModel(s, s.truth.acceptance_date);
          if (!m) throw new Error(`no lane model for ${s.carrier_id} ${s.shipping_service}`);
          const q = m.quantile(p);
          observed += s.truth.transit <= q ? 1 : 0;
          expected += m.cdf(q);
          count++;
        }
        within(observed / count, expected / count, 0.01);
      }
    });

    it('applies the Monday, peak and worst-week effects in the model', () => {
      const shipment = history.find((s) => s.carrier_id === 'dhlpde' && s.shipping_service === 'paket') as SimulatedShipment;
      const friday = blackFriday(2025);
      expect(friday).toBe('2025-11-28');
      expect(laneModel(shipment, '2025-10-14')).toMatchObject({ base: 1, onTime: 0.85 });
      expect(laneModel(shipment, '2025-10-13')?.onTime).toBeCloseTo(0.85 - MONDAY_ON_TIME_DROP, 10);
      expect(laneModel(shipment, '2025-11-28')).toMatchObject({ base: 1 });
      expect(laneModel(shipment, '2025-11-28')?.onTime).toBeCloseTo(0.85 - PEAK_ON_TIME_DROP, 10);
      // Cyber Monday's week: a day more, and Monday's and peak's drops together.
      expect(laneModel(shipment, '2025-12-01')?.base).toBe(2);
      expect(laneModel(shipment, '2025-12-01')?.onTime).toBeCloseTo(0.85 - MONDAY_ON_TIME_DROP - PEAK_ON_TIME_DROP, 10);
      expect(laneModel(shipment, '2025-12-09')).toMatchObject({ base: 1 });
      const pmf = laneModel(shipment, '2025-10-14')?.pmf as Float64Array;
      within(
        pmf.reduce((a, b) => a + b, 0),
        1,
        1e-9,
      );
      expect(laneModel({ ...shipment, carrier_id: 'fdxglb' }, '2025-10-14')).toBeNull();
      // Peak volume: the peak weeks carry more labels per day than the weeks before.
      const perDay = (from: string, to: string) => history.filter((s) => s.created_at >= from && s.created_at < to).length / 21;
      expect(perDay('2025-11-28', '2025-12-19')).toBeGreaterThan(perDay('2025-10-24', '2025-11-14') * 1.15);
    });

    it('tells each story in time order with standard keys, acceptance before the first attempt', () => {
      const nowMs = instant(now);
      // Checked without an expect per event (200,000 of them): the first problems are reported.
      const problems: string[] = [];
      const check = (ok: boolean, s: SimulatedShipment, what: string) => {
        if (!ok && problems.length < 20) problems.push(`${s.tracking_number}: ${what}`);
      };
      for (const s of history) {
        check(/^SIM\d{16}$/.test(s.tracking_number), s, 'tracking number');
        check(POSTAL_FORMATS[s.sender_address.country_code].test(s.sender_address.postal_code), s, 'sender postal code');
        check(POSTAL_FORMATS[s.recipient_address.country_code].test(s.recipient_address.postal_code), s, 'recipient postal code');
        check(s.events[0].event_key === 'label_created', s, 'starts with label_created');
        check(instant(s.events[0].time) === instant(s.created_at), s, 'label created at created_at');
        let previous = 0;
        for (const e of s.events) {
          check(isEventKey(e.event_key), s, `event key ${e.event_key}`);
          check(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/.test(e.time), s, `time ${e.time}`);
          check(isValidTimeZone(e.timezone), s, `timezone ${e.timezone}`);
          check(e.location.place.length > 0, s, 'place');
          check(instant(e.time) > previous, s, `${e.event_key} at ${e.time} not after the event before`);
          check(instant(e.time) <= nowMs, s, `${e.event_key} after now`);
          previous = instant(e.time);
        }
        const accepted = s.events.findIndex((e) => e.event_key === 'picked_up');
        const attempt = s.events.findIndex((e) => ATTEMPT_PHASES.has(phaseOfEvent(e.event_key)));
        if (attempt >= 0) check(accepted >= 0 && accepted < attempt, s, 'acceptance before the first attempt');
        if (accepted >= 0) {
          check(localDate(s.events[accepted].time) === s.truth.acceptance_date, s, 'acceptance date');
          // Picked up on the day the label was made or the next working day at the origin.
          const origin = calendarFor(s.carrier_id, s.shipping_service, s.sender_address.country_code);
          check(workingDaysAfter(localDate(s.events[0].time), s.truth.acceptance_date, origin) <= 1, s, 'picked up late');
        }
        // The events' dates give the transit the generator drew, counted in the destination's working days.
        if (attempt >= 0) {
          const destination = calendarFor(s.carrier_id, s.shipping_service, s.recipient_address.country_code);
          check(localDate(s.events[attempt].time) === s.truth.first_attempt_date, s, 'first attempt date');
          const transit = workingDaysAfter(s.truth.acceptance_date, localDate(s.events[attempt].time), destination);
          check(transit === s.truth.transit, s, `transit ${transit} against ${s.truth.transit}`);
          check((s.events[attempt].event_key === 'delivery_attempt_failed') === s.truth.first_attempt_failed, s, 'failed attempt');
        }
        const keys = s.events.map((e) => e.event_key);
        const last = keys.slice(-2).join(',');
        if (!s.truth.cut) {
          const endings: Record<string, boolean> = {
            returned: last === 'returning_to_sender,returned_to_sender',
            lost: keys.at(-1) === 'lost',
            stuck: keys.at(-1) === 'departed_facility',
            collected: last === 'available_for_pickup,collected_by_recipient',
            delivered: keys.at(-1) === 'delivered' || keys.at(-1) === 'delivered_to_neighbour',
            redelivered: last === 'out_for_delivery,delivered' && keys.includes('delivery_attempt_failed'),
            address_issue: keys.includes('address_issue') && keys.at(-1) === 'delivered',
          };
          check(endings[s.truth.outcome], s, `${s.truth.outcome} ends ${last}`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('stops at the end: the latest parcels are still on their way', () => {
      const cut = history.filter((s) => s.truth.cut);
      expect(cut.length).toBeGreaterThan(100);
      for (const s of cut) expect(s.created_at >= '2025-12-01').toBe(true);
      const lastWeek = history.filter((s) => s.created_at >= '2025-12-29');
      expect(lastWeek.some((s) => !s.events.some((e) => ATTEMPT_PHASES.has(phaseOfEvent(e.event_key))))).toBe(true);
      // Sorted by creation, numbered in that order.
      for (let i = 1; i < history.length; i++) expect(history[i].created_at >= history[i - 1].created_at).toBe(true);
    });
  });

  it('never creates or scans after "now" when the history ends today', () => {
    const history = simulateHistory({ shipments: 2000, weeks: 2, seed: 3, end: '2025-06-18', now: '2025-06-18T09:30:00.000Z' });
    for (const s of history) {
      expect(s.created_at <= '2025-06-18T09:30:00.000Z').toBe(true);
      for (const e of s.events) expect(instant(e.time)).toBeLessThanOrEqual(instant('2025-06-18T09:30:00.000Z'));
    }
  });
});
