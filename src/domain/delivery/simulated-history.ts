import type { EventKey } from '../../carriers/phases.js';
import { offsetAt } from '../../core/event-time.js';
import { calendarFor } from './carrier-calendars.js';
import { hubIn, placeIn, type Random, type SimulatedHub, type SimulatedPlace, usBand } from './simulated-places.js';
import { addCalendarDays, addWorkingDays, type WorkingCalendar, weekdayOf } from './working-calendar.js';

/**
 * A realistic, reproducible delivery history for demos, tests and the walk-forward evaluation of predictions
 * (docs/delivery-intelligence.md, "Simulated history"). Pure: the same options give the same shipments, event for
 * event. The generator follows ../shared research section 5: per lane a base `b` in working days, then
 * `T = b + D` with `D = 0` with probability `q` (the on-time share) and otherwise `1 + Geometric(π)`; working days
 * become dates through the carrier's calendar for the destination (`calendarFor`). Every parameter below is a named
 * constant with its source; "assumed" marks those no published figure was found for.
 */

// ── Outcome parameters ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * Share of first delivery attempts that fail, by destination country (1 − first-attempt delivery rate, FADR):
 * DE 92.8% and GB 95.1% (Parcel Monitor Q1 2024, DE→DE and GB→GB), NL 95% (PostNL press release), US 97.2% and
 * IE 88.1% (smartroutes.io's collection of FADR figures). Other countries: 5%, the middle of the 3–7% the research
 * recommends.
 */
export const FIRST_ATTEMPT_FAILURE_BY_COUNTRY: Readonly<Record<string, number>> = {
  DE: 0.072,
  GB: 0.049,
  NL: 0.05,
  US: 0.028,
  IE: 0.119,
};
export const FIRST_ATTEMPT_FAILURE_DEFAULT = 0.05;
/** Carriers with their own published FADR, for their domestic parcels: DHL Paket 93.2%, Royal Mail 94.7% (Parcel Monitor Q1 2024). */
export const FIRST_ATTEMPT_FAILURE_BY_CARRIER: Readonly<Record<string, { country: string; share: number }>> = {
  dhlpde: { country: 'DE', share: 0.068 },
  royalm: { country: 'GB', share: 0.053 },
};
/** After a failed attempt: delivered again the next working day (the rest go to a pick-up point). Assumed. */
export const REDELIVERY_SHARE = 0.55;
/** Working days a pick-up point holds a parcel before it goes back (DHL and PostNL hold 7 days). Assumed. */
export const PICKUP_HOLD_WORKING_DAYS = 7;
/** Returned to sender, of all parcels: uncollected from the pick-up point. No published rate (research section 5); assumed. */
export const RETURN_TO_SENDER_SHARE = 0.008;
/** An address problem at the first attempt, then delivered the next working day, of all parcels. Assumed. */
export const ADDRESS_ISSUE_SHARE = 0.006;
/** Lost in transit (a `lost` event after the last scan), of all parcels. No published rate; assumed. */
export const LOST_SHARE = 0.002;
/** Working days after acceptance when a missing parcel is declared lost. Assumed. */
export const LOST_DECLARED_AFTER_WORKING_DAYS = 10;
/** Stuck without a scan after leaving the first hub (no events ever after), of all parcels. Assumed. */
export const STUCK_SHARE = 0.004;
/** Damaged in transit (a `damaged` scan, then delivered as planned), of all parcels. Assumed. */
export const DAMAGED_SHARE = 0.002;
/**
 * Of late parcels (`D > 0`), the share whose carrier scans a `delayed` exception on the day they were due. Chosen
 * so that parcels with any issue (failed attempt, exception, return, stuck) come to 6–10%: Parcel Monitor's issue
 * ratio was 5.97% for GB→GB and 9.75% for DE→DE in Q1 2024.
 */
export const DELAY_SCAN_SHARE = 0.2;
/** Of late international parcels, the share whose delay shows as a customs hold. No published rate; assumed. */
export const CUSTOMS_HOLD_SHARE_OF_LATE = 0.5;
/** Delivered to a neighbour, of successful first attempts. Assumed. */
export const NEIGHBOUR_SHARE = 0.06;

// ── Acceptance and volume ──────────────────────────────────────────────────────────────────────────────────────

/** Labels created before this local hour on a working day may be picked up the same day. Assumed. */
export const SAME_DAY_PICKUP_CUTOFF_HOUR = 15;
/** Of those, the share picked up the same day (the rest the next working day). Assumed. */
export const SAME_DAY_PICKUP_SHARE = 0.75;
/**
 * Labels created per weekday, Sunday first. Mondays heaviest (weekend orders; GFS: Mondays carried 27% of a UK
 * peak week's shipments), tailing off to Friday; weekends low. Assumed apart from Monday's lead.
 */
export const CREATION_WEEKDAY_WEIGHTS = [0.05, 0.22, 0.19, 0.17, 0.16, 0.14, 0.07] as const;
/** Volume in the peak season, against the rest of the year: ~30% above off-peak (FreightWaves, Cyber Week 2025). */
export const PEAK_VOLUME_FACTOR = 1.3;

// ── Transit modifiers ──────────────────────────────────────────────────────────────────────────────────────────

/** Parcels accepted on a Monday are late 1–2 percentage points more often (Canada Post figure, research section 5). */
export const MONDAY_ON_TIME_DROP = 0.015;
/**
 * In the peak season (Black Friday to Christmas Eve) the on-time share falls 5–10 points (ShipMatrix: USPS 96.5% in
 * December 2023, 90.4% in December 2024); the middle of the range.
 */
export const PEAK_ON_TIME_DROP = 0.075;
/**
 * The worst peak week, from Cyber Monday to the Sunday after, adds a working day to the base: Wuunder measured 5.1
 * working days in week 49 of 2020 against 2.4–2.9 in nearby weeks (a week that began on Cyber Monday), and Shopify
 * lists the Cyber Monday week among its peak-risk dates.
 */
export const WORST_WEEK_EXTRA_DAYS = 1;
/** Transit is cut at this many working days (the prediction model's longest transit, transit-model.ts). */
export const TRANSIT_CAP = 30;

// ── Lanes ──────────────────────────────────────────────────────────────────────────────────────────────────────

/** How a lane's base is found: fixed, or by the US ground zones crossed (`base + bands crossed`). */
export type BaseRule = { fixed: number } | { usZones: number };

/** The parameters of a lane's transit: `T = b + D`, `D = 0` with probability `onTime`, else `1 + Geometric(pi)`. */
export interface LaneParameters {
  base: BaseRule;
  onTime: number;
  pi: number;
}

/**
 * Domestic next-day networks, DE-like: b = 1, q = 0.85, π = 0.6 gave mean 1.25 working days and P(T ≤ 2) = 0.94 in
 * the research's simulation, close to Parcel Monitor's 1.31 days for DE→DE (and DHL Paket's 1.3). Also used for the
 * Dutch networks, for which no transit figure was found (assumed).
 */
const DE_LIKE: LaneParameters = { base: { fixed: 1 }, onTime: 0.85, pi: 0.6 };
/** UK-like: q = 0.86, π = 0.7 gave mean 1.20, P(T ≤ 2) = 0.96; Parcel Monitor: GB→GB 1.23 days, Royal Mail 1.23. */
const UK_NEXT_DAY: LaneParameters = { base: { fixed: 1 }, onTime: 0.86, pi: 0.7 };
/** A two-day service with the UK-like spread (Royal Mail Tracked 48, Colissimo's 48-hour promise). Assumed base. */
const TWO_DAY: LaneParameters = { base: { fixed: 2 }, onTime: 0.86, pi: 0.7 };
/**
 * USPS Ground Advantage: 2 working days plus one per US band crossed (2–5; "1–5 by US zone" in the research; the
 * USPS network average is 2.4–2.5 days). On-time 94.1% (ShipMatrix, USPS December 2025).
 */
const USPS_GROUND: LaneParameters = { base: { usZones: 2 }, onTime: 0.941, pi: 0.6 };
/** USPS Priority Mail: 1–3 days by distance (1 plus a band per two crossed is approximated by 1 + bands, capped by the zone count). */
const USPS_PRIORITY: LaneParameters = { base: { usZones: 1 }, onTime: 0.941, pi: 0.6 };
/** UPS Ground: 1 working day plus one per band crossed; on-time 97.2% (ShipMatrix, UPS December 2025). */
const UPS_GROUND: LaneParameters = { base: { usZones: 1 }, onTime: 0.972, pi: 0.7 };
/** UPS Next Day Air: next working day; on-time as UPS Ground, shorter delays. π assumed. */
const UPS_NEXT_DAY: LaneParameters = { base: { fixed: 1 }, onTime: 0.972, pi: 0.8 };
/**
 * Road parcels between neighbouring EU countries: b = 2 (international lanes are 3–8 in the research, less between
 * neighbours); q 0.80, below the domestic networks (project44: 85.1% of last-mile parcels on time against the
 * retailer's promise in Sept 2023). π assumed.
 */
const EU_NEIGHBOUR: LaneParameters = { base: { fixed: 2 }, onTime: 0.8, pi: 0.5 };
/** Road parcels across more of the EU: b = 3 (the research's 3–8 for international), else as EU_NEIGHBOUR. */
const EU_FAR: LaneParameters = { base: { fixed: 3 }, onTime: 0.8, pi: 0.5 };
/** Through customs, short (GB ↔ EU, GB → IE): b = 3. Lower on-time and longer delays, assumed. */
const CUSTOMS_NEAR: LaneParameters = { base: { fixed: 3 }, onTime: 0.75, pi: 0.4 };
/** Intercontinental with customs (US ↔ Europe): b = 5, inside the research's 3–8. On-time and π assumed. */
const INTERCONTINENTAL: LaneParameters = { base: { fixed: 5 }, onTime: 0.75, pi: 0.4 };

/** A lane the simulator sends parcels on, with its share of all parcels (weights sum to 100). */
export interface SimulatedLane extends LaneParameters {
  carrierId: string;
  service: string;
  origin: string;
  destination: string;
  weight: number;
  /** Parcels pass customs (an `in_customs` and a `customs_cleared` scan). */
  customs: boolean;
}

function lane(
  carrierId: string,
  service: string,
  origin: string,
  destination: string,
  weight: number,
  parameters: LaneParameters,
  customs = false,
): SimulatedLane {
  return { carrierId, service, origin, destination, weight, customs, ...parameters };
}

/**
 * The lanes, by carrier. Domestic lanes carry ~83% of parcels, intra-EU ~14%, international ~3% (assumed: a
 * merchant mostly ships in its own country). Carrier shares are a plausible European-and-US merchant mix.
 */
export const SIMULATED_LANES: readonly SimulatedLane[] = [
  lane('dhlpde', 'paket', 'DE', 'DE', 19, DE_LIKE),
  lane('dhlpde', 'paket_international', 'DE', 'AT', 1.2, EU_NEIGHBOUR),
  lane('dhlpde', 'paket_international', 'DE', 'NL', 0.8, EU_NEIGHBOUR),
  lane('dhlpde', 'paket_international', 'DE', 'FR', 0.5, EU_FAR),
  lane('dhlpde', 'paket_international', 'DE', 'GB', 0.3, CUSTOMS_NEAR, true),
  lane('dhlpde', 'paket_international', 'DE', 'US', 0.2, INTERCONTINENTAL, true),
  lane('postnl', 'standard', 'NL', 'NL', 11, DE_LIKE),
  lane('postnl', 'standard', 'NL', 'BE', 1.2, EU_NEIGHBOUR),
  lane('postnl', 'standard', 'NL', 'DE', 0.8, EU_NEIGHBOUR),
  lane('royalm', 'tracked24', 'GB', 'GB', 7, UK_NEXT_DAY),
  lane('royalm', 'tracked48', 'GB', 'GB', 6, TWO_DAY),
  lane('royalm', 'international_tracked', 'GB', 'IE', 0.5, CUSTOMS_NEAR, true),
  lane('royalm', 'international_tracked', 'GB', 'US', 0.5, INTERCONTINENTAL, true),
  lane('uspsus', 'ground_advantage', 'US', 'US', 8, USPS_GROUND),
  lane('uspsus', 'priority', 'US', 'US', 3.5, USPS_PRIORITY),
  lane('uspsus', 'priority_mail_international', 'US', 'GB', 0.5, INTERCONTINENTAL, true),
  lane('upsglb', 'ground', 'US', 'US', 7, UPS_GROUND),
  lane('upsglb', 'next_day_air', 'US', 'US', 1, UPS_NEXT_DAY),
  lane('upsglb', 'worldwide_saver', 'US', 'DE', 1, INTERCONTINENTAL, true),
  lane('upsglb', 'worldwide_saver', 'US', 'GB', 1, INTERCONTINENTAL, true),
  lane('lapost', 'colissimo', 'FR', 'FR', 7, TWO_DAY),
  lane('lapost', 'colissimo_international', 'FR', 'BE', 0.6, EU_NEIGHBOUR),
  lane('lapost', 'colissimo_international', 'FR', 'ES', 0.4, EU_FAR),
  lane('glsglb', 'business_parcel', 'DE', 'DE', 4, DE_LIKE),
  lane('glsglb', 'euro_business_parcel', 'DE', 'AT', 1, EU_NEIGHBOUR),
  lane('glsglb', 'euro_business_parcel', 'DE', 'PL', 1, EU_FAR),
  lane('dpdeur', 'classic', 'DE', 'DE', 5, DE_LIKE),
  lane('dpdeur', 'classic', 'DE', 'NL', 1, EU_NEIGHBOUR),
  lane('dpdeur', 'classic', 'DE', 'FR', 1, EU_FAR),
  lane('dpdeur', 'classic', 'NL', 'DE', 1, EU_NEIGHBOUR),
  lane('dpdeur', 'classic', 'DE', 'IT', 0.5, EU_FAR),
  lane('dpdeur', 'classic', 'DE', 'ES', 0.5, EU_FAR),
  lane('sandbx', 'standard', 'NL', 'NL', 5, DE_LIKE),
  lane('sandbx', 'standard', 'NL', 'DE', 1, EU_NEIGHBOUR),
];

const LANES_BY_KEY = new Map(SIMULATED_LANES.map((l) => [laneKey(l.carrierId, l.service, l.origin, l.destination), l]));

function laneKey(carrierId: string, service: string, origin: string, destination: string): string {
  return `${carrierId}|${service}|${origin}|${destination}`;
}

// ── The shipments ──────────────────────────────────────────────────────────────────────────────────────────────

export interface SimulatedAddress {
  country_code: string;
  postal_code: string;
  city: string;
}

export interface SimulatedEvent {
  event_key: EventKey;
  /** ISO 8601 with the local offset of where it happened. */
  time: string;
  /** IANA timezone of where it happened. */
  timezone: string;
  location: { place: string; country_code?: string };
}

/** What became of a parcel, whether or not its events got that far by the history's end. */
export type SimulatedOutcome = 'delivered' | 'redelivered' | 'collected' | 'address_issue' | 'returned' | 'lost' | 'stuck';

/** The generator's own record of a shipment: what an evaluation compares predictions with. */
export interface SimulatedTruth {
  outcome: SimulatedOutcome;
  /** Local date of acceptance (`picked_up`) at the origin. */
  acceptance_date: string;
  /** Local date of the first delivery attempt at the destination; null for lost and stuck parcels. */
  first_attempt_date: string | null;
  first_attempt_failed: boolean;
  /** Working days from acceptance to first attempt (`T`); null for lost and stuck parcels. */
  transit: number | null;
  /** The lane's parameters as they applied on the acceptance date (`laneModel`). */
  base: number;
  on_time: number;
  pi: number;
  /** `D > 0`: later than the lane's base. */
  late: boolean;
  /** Events past the history's end were cut (the parcel is still on its way at "now"). */
  cut: boolean;
}

export interface SimulatedShipment {
  carrier_id: string;
  shipping_service: string;
  sender_address: SimulatedAddress;
  recipient_address: SimulatedAddress;
  /** `SIM` and digits: the format of no real carrier, so nothing ever polls it. */
  tracking_number: string;
  /** When the label was created, ISO 8601 UTC. */
  created_at: string;
  /** In time order, up to the history's end. */
  events: SimulatedEvent[];
  truth: SimulatedTruth;
}

export interface SimulateOptions {
  shipments: number;
  weeks: number;
  seed: string | number;
  /** The last day of the history, `YYYY-MM-DD`. */
  end: string;
  /** "Now": no event after this instant (ISO 8601). Defaults to the end of `end` (23:59:59 UTC). */
  now?: string;
}

/** The most shipments one history may hold (and its tracking numbers count up to). */
export const MAX_SIMULATED_SHIPMENTS = 1_000_000;
export const MAX_SIMULATED_WEEKS = 156;

/**
 * A delivery history of `shipments` parcels whose labels were created over the `weeks` weeks ending on `end`,
 * sorted by creation time. Reproducible: the same options give the same history; each shipment draws from its own
 * generator seeded by `seed` and its position, so a longer history begins with other draws only through sorting.
 */
export function simulateHistory(options: SimulateOptions): SimulatedShipment[] {
  const { shipments, weeks, seed, end } = options;
  if (!Number.isInteger(shipments) || shipments < 0 || shipments > MAX_SIMULATED_SHIPMENTS)
    throw new RangeError(`shipments must be an integer from 0 to ${MAX_SIMULATED_SHIPMENTS}`);
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_SIMULATED_WEEKS)
    throw new RangeError(`weeks must be an integer from 1 to ${MAX_SIMULATED_WEEKS}`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(end) || Number.isNaN(Date.parse(`${end}T00:00:00Z`)))
    throw new RangeError('end must be a date YYYY-MM-DD');
  const now = options.now === undefined ? Date.parse(`${end}T23:59:59.999Z`) : Date.parse(options.now);
  if (Number.isNaN(now)) throw new RangeError('now must be an ISO 8601 instant');
  const days = creationDays(addCalendarDays(end, 1 - 7 * weeks), end);
  const calendars = new CalendarCache();
  const drawn: Array<{ index: number; shipment: Omit<SimulatedShipment, 'tracking_number'>; at: number }> = [];
  for (let index = 0; index < shipments; index++) {
    const random = seeded(`${seed}|${index}`);
    const { shipment, at } = simulateOne(random, days, now, calendars);
    drawn.push({ index, shipment, at });
  }
  drawn.sort((a, b) => a.at - b.at || a.index - b.index);
  const prefix = `SIM${seedDigits(seed)}`;
  return drawn.map(({ shipment }, position) => ({
    carrier_id: shipment.carrier_id,
    shipping_service: shipment.shipping_service,
    sender_address: shipment.sender_address,
    recipient_address: shipment.recipient_address,
    tracking_number: `${prefix}${String(position + 1).padStart(7, '0')}`,
    created_at: shipment.created_at,
    events: shipment.events,
    truth: shipment.truth,
  }));
}

/** The true transit distribution of a lane on an acceptance date: what an evaluation compares predictions with. */
export interface LaneModel {
  /** `b`, with the worst peak week's extra day. */
  base: number;
  /** `q`, less the Monday and peak drops. */
  onTime: number;
  pi: number;
  /** P(T = t) for t = 0 … TRANSIT_CAP (the tail beyond the cap is counted at the cap). */
  pmf: Float64Array;
  /** P(T ≤ t). */
  cdf(t: number): number;
  /** The smallest t with P(T ≤ t) ≥ p. */
  quantile(p: number): number;
  mean: number;
}

/**
 * The distribution the generator draws `T` from for a shipment's lane (carrier, service, sender and recipient
 * countries, and for US ground lanes the ZIP codes) when accepted on `acceptanceDate`. Null for a lane the
 * simulator does not have.
 */
export function laneModel(
  shipment: Pick<SimulatedShipment, 'carrier_id' | 'shipping_service' | 'sender_address' | 'recipient_address'>,
  acceptanceDate: string,
): LaneModel | null {
  const found = LANES_BY_KEY.get(
    laneKey(shipment.carrier_id, shipment.shipping_service, shipment.sender_address.country_code, shipment.recipient_address.country_code),
  );
  if (!found) return null;
  return modelOf(found, shipment.sender_address.postal_code, shipment.recipient_address.postal_code, acceptanceDate);
}

function modelOf(simulated: SimulatedLane, originPostal: string, destinationPostal: string, acceptanceDate: string): LaneModel {
  const season = seasonOf(acceptanceDate);
  const base = baseOf(simulated.base, originPostal, destinationPostal) + (season.worstWeek ? WORST_WEEK_EXTRA_DAYS : 0);
  let onTime = simulated.onTime;
  if (weekdayOf(acceptanceDate) === 1) onTime -= MONDAY_ON_TIME_DROP;
  if (season.peak) onTime -= PEAK_ON_TIME_DROP;
  const pi = simulated.pi;
  const pmf = new Float64Array(TRANSIT_CAP + 1);
  pmf[Math.min(base, TRANSIT_CAP)] += onTime;
  let tail = 1 - onTime;
  for (let t = base + 1; t < TRANSIT_CAP && tail > 0; t++) {
    const p = (1 - onTime) * pi * (1 - pi) ** (t - base - 1);
    pmf[t] += p;
    tail -= p;
  }
  if (base < TRANSIT_CAP) pmf[TRANSIT_CAP] += Math.max(0, tail);
  let mean = 0;
  for (let t = 0; t <= TRANSIT_CAP; t++) mean += t * pmf[t];
  const cumulative = new Float64Array(TRANSIT_CAP + 1);
  let sum = 0;
  for (let t = 0; t <= TRANSIT_CAP; t++) {
    sum += pmf[t];
    cumulative[t] = sum;
  }
  return {
    base,
    onTime,
    pi,
    pmf,
    mean,
    cdf: (t) => (t < 0 ? 0 : cumulative[Math.min(Math.floor(t), TRANSIT_CAP)]),
    quantile: (p) => {
      for (let t = 0; t <= TRANSIT_CAP; t++) if (cumulative[t] >= p - 1e-12) return t;
      return TRANSIT_CAP;
    },
  };
}

function baseOf(rule: BaseRule, originPostal: string, destinationPostal: string): number {
  if ('fixed' in rule) return rule.fixed;
  return rule.usZones + Math.abs(usBand(originPostal) - usBand(destinationPostal));
}

/** The first-attempt failure share of a lane. */
export function firstAttemptFailureOf(carrierId: string, destinationCountry: string, originCountry: string): number {
  const own = FIRST_ATTEMPT_FAILURE_BY_CARRIER[carrierId];
  if (own && own.country === destinationCountry && own.country === originCountry) return own.share;
  return FIRST_ATTEMPT_FAILURE_BY_COUNTRY[destinationCountry] ?? FIRST_ATTEMPT_FAILURE_DEFAULT;
}

// ── Season ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** Black Friday: the day after the fourth Thursday of November. */
export function blackFriday(year: number): string {
  const first = `${year}-11-01`;
  const firstThursday = 1 + ((4 - weekdayOf(first) + 7) % 7);
  return `${year}-11-${String(firstThursday + 22).padStart(2, '0')}`;
}

/** Whether a date is in the peak season (Black Friday to Christmas Eve) and in its worst week (Cyber Monday to Sunday). */
export function seasonOf(date: string): { peak: boolean; worstWeek: boolean } {
  const friday = blackFriday(Number(date.slice(0, 4)));
  const peak = date >= friday && date <= `${date.slice(0, 4)}-12-24`;
  const worstWeek = date >= addCalendarDays(friday, 3) && date <= addCalendarDays(friday, 9);
  return { peak, worstWeek };
}

// ── One shipment ───────────────────────────────────────────────────────────────────────────────────────────────

interface CreationDays {
  dates: string[];
  /** Cumulative weights, for a draw by binary search. */
  cumulative: number[];
}

function creationDays(start: string, end: string): CreationDays {
  const dates: string[] = [];
  const cumulative: number[] = [];
  let total = 0;
  for (let date = start; date <= end; date = addCalendarDays(date, 1)) {
    total += CREATION_WEEKDAY_WEIGHTS[weekdayOf(date)] * (seasonOf(date).peak ? PEAK_VOLUME_FACTOR : 1);
    dates.push(date);
    cumulative.push(total);
  }
  return { dates, cumulative };
}

function drawDay(random: Random, days: CreationDays): string {
  const target = random() * days.cumulative[days.cumulative.length - 1];
  let low = 0;
  let high = days.cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (days.cumulative[middle] > target) high = middle;
    else low = middle + 1;
  }
  return days.dates[low];
}

/** Calendars by carrier, service and country, each remembering its answers (a history asks about the same days often). */
class CalendarCache {
  private readonly calendars = new Map<string, WorkingCalendar>();

  of(carrierId: string, service: string, country: string): WorkingCalendar {
    const key = `${carrierId}|${service}|${country}`;
    let calendar = this.calendars.get(key);
    if (!calendar) {
      const inner = calendarFor(carrierId, service, country);
      const known = new Map<string, boolean>();
      calendar = {
        isWorkingDay(date) {
          let answer = known.get(date);
          if (answer === undefined) {
            answer = inner.isWorkingDay(date);
            known.set(date, answer);
          }
          return answer;
        },
      };
      this.calendars.set(key, calendar);
    }
    return calendar;
  }
}

interface Draft {
  key: EventKey;
  at: number;
  timezone: string;
  place: string;
  country: string;
}

/**
 * Minutes east of UTC in `timezone` at `instant`, remembered by timezone and UTC hour: offsets change on whole UTC
 * hours in every zone the simulator uses, and asking Intl costs microseconds, a dozen times per shipment.
 */
function offsetOf(instant: number, timezone: string): number {
  let hours = OFFSETS.get(timezone);
  if (!hours) {
    hours = new Map();
    OFFSETS.set(timezone, hours);
  }
  const hour = Math.floor(instant / 3_600_000);
  let offset = hours.get(hour);
  if (offset === undefined) {
    if (hours.size > 100_000) hours.clear();
    offset = offsetAt(instant, timezone);
    hours.set(hour, offset);
  }
  return offset;
}
const OFFSETS = new Map<string, Map<number, number>>();

/** The instant of the local wall time `minutes` after midnight of `date` in `timezone` (moved on by a DST gap). */
function wall(date: string, minutes: number, timezone: string): number {
  const local = Date.parse(`${date}T00:00:00Z`) + Math.floor(minutes) * 60_000;
  const guess = local - offsetOf(local, timezone) * 60_000;
  return local - offsetOf(guess, timezone) * 60_000;
}

/** The local date, time and offset of an instant: `2025-11-03T14:22:00+01:00`. */
function localText(instant: number, timezone: string): { date: string; text: string } {
  const offset = offsetOf(instant, timezone);
  const local = new Date(instant + offset * 60_000).toISOString();
  const sign = offset < 0 ? '-' : '+';
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, '0');
  const mins = String(Math.abs(offset) % 60).padStart(2, '0');
  return { date: local.slice(0, 10), text: `${local.slice(0, 19)}${sign}${hours}:${mins}` };
}

/** A local time between two hours (`[from, to)`, in hours) on `date`. */
function between(random: Random, date: string, from: number, to: number, timezone: string): number {
  return wall(date, (from + random() * (to - from)) * 60, timezone);
}

function localDateOf(instant: number, timezone: string): string {
  return localText(instant, timezone).date;
}

function pickLane(random: Random): SimulatedLane {
  let left = random() * LANE_WEIGHT_TOTAL;
  for (const l of SIMULATED_LANES) {
    left -= l.weight;
    if (left < 0) return l;
  }
  return SIMULATED_LANES[SIMULATED_LANES.length - 1];
}
const LANE_WEIGHT_TOTAL = SIMULATED_LANES.reduce((sum, l) => sum + l.weight, 0);

/** `1 + Geometric(π)`: 1 plus the failures before the first success of a trial succeeding with probability π. */
function delayDays(random: Random, pi: number): number {
  const u = 1 - random(); // (0, 1]
  return 1 + Math.floor(Math.log(u) / Math.log(1 - pi));
}

function simulateOne(
  random: Random,
  days: CreationDays,
  now: number,
  calendars: CalendarCache,
): { shipment: Omit<SimulatedShipment, 'tracking_number'>; at: number } {
  const chosen = pickLane(random);
  const origin = placeIn(chosen.origin, random);
  const destination = placeIn(chosen.destination, random);
  const sender: SimulatedAddress = { country_code: origin.country, postal_code: origin.postalCode(random), city: origin.city };
  const recipient: SimulatedAddress = {
    country_code: destination.country,
    postal_code: destination.postalCode(random),
    city: destination.city,
  };
  const originCalendar = calendars.of(chosen.carrierId, chosen.service, chosen.origin);
  const destinationCalendar = calendars.of(chosen.carrierId, chosen.service, chosen.destination);

  // The label, on a day drawn by weekday and season, between 08:00 and 20:00 where the sender is; never after now.
  let created = between(random, drawDay(random, days), 8, 20, origin.timezone);
  for (let attempt = 0; created > now && attempt < 20; attempt++) created = between(random, drawDay(random, days), 8, 20, origin.timezone);
  if (created > now) created = now - Math.floor(random() * 3_600_000);
  const createdDate = localDateOf(created, origin.timezone);
  const createdMinutes = (created - wall(createdDate, 0, origin.timezone)) / 60_000;

  const drafts: Draft[] = [];
  const add = (key: EventKey, at: number, where: SimulatedPlace | SimulatedHub) =>
    drafts.push({ key, at, timezone: where.timezone, place: where.city, country: where.country });
  add('label_created', created, origin);

  // Acceptance: the same day for most labels made before the cut-off on a working day, else the next working day.
  const sameDay =
    originCalendar.isWorkingDay(createdDate) && createdMinutes < SAME_DAY_PICKUP_CUTOFF_HOUR * 60 && random() < SAME_DAY_PICKUP_SHARE;
  const accepted = sameDay ? createdDate : addWorkingDays(createdDate, 1, originCalendar);
  add(
    'picked_up',
    sameDay ? between(random, accepted, 15.5, 19, origin.timezone) : between(random, accepted, 9, 18, origin.timezone),
    origin,
  );
  const originHub = hubIn(chosen.origin, random);
  add('arrived_at_facility', between(random, accepted, 20, 21.5, originHub.timezone), originHub);
  add('departed_facility', between(random, accepted, 22, 23.75, originHub.timezone), originHub);

  const model = modelOf(chosen, sender.postal_code, recipient.postal_code, accepted);
  const late = random() >= model.onTime;
  const transit = Math.min(TRANSIT_CAP, model.base + (late ? delayDays(random, model.pi) : 0));
  const attemptDate = addWorkingDays(accepted, transit, destinationCalendar);

  // What becomes of it: lost or stuck on the way, else a first attempt that succeeds or fails.
  const fate = random();
  const failureShare = firstAttemptFailureOf(chosen.carrierId, chosen.destination, chosen.origin);
  const failed = random() < failureShare;
  const failedHow = random() * failureShare;
  let outcome: SimulatedOutcome;
  if (fate < LOST_SHARE) outcome = 'lost';
  else if (fate < LOST_SHARE + STUCK_SHARE) outcome = 'stuck';
  else if (!failed) outcome = 'delivered';
  else if (failedHow < RETURN_TO_SENDER_SHARE) outcome = 'returned';
  else if (failedHow < RETURN_TO_SENDER_SHARE + ADDRESS_ISSUE_SHARE) outcome = 'address_issue';
  else outcome = random() < REDELIVERY_SHARE ? 'redelivered' : 'collected';
  const damaged = outcome !== 'lost' && outcome !== 'stuck' && random() < DAMAGED_SHARE;

  const nextDay = addCalendarDays(accepted, 1);
  if (outcome === 'stuck') {
    // Events stop after the first hub.
  } else if (outcome === 'lost') {
    if (nextDay < attemptDate) add('in_transit', between(random, nextDay, 2, 6, originHub.timezone), originHub);
    add(
      'lost',
      between(random, addWorkingDays(accepted, LOST_DECLARED_AFTER_WORKING_DAYS, originCalendar), 9, 17, originHub.timezone),
      originHub,
    );
  } else {
    // On the way: a second hub the next day when there is time, customs for international lanes, a delay scan.
    const destinationHub = hubIn(chosen.destination, random);
    if (nextDay < attemptDate) {
      const hub = chosen.customs ? originHub : hubIn(chosen.origin, random);
      add('arrived_at_facility', between(random, nextDay, 2, 5, hub.timezone), hub);
      add(damaged ? 'damaged' : 'departed_facility', between(random, nextDay, 6, 11, hub.timezone), hub);
    } else if (damaged) add('damaged', between(random, accepted, 23.8, 23.95, originHub.timezone), originHub);
    const dueDate = addWorkingDays(accepted, model.base, destinationCalendar);
    if (chosen.customs) {
      const held = late && random() < CUSTOMS_HOLD_SHARE_OF_LATE;
      const customsDate = addCalendarDays(attemptDate, -1);
      const heldFrom = held ? addCalendarDays(dueDate, -1) : customsDate;
      add('in_customs', between(random, heldFrom > nextDay ? heldFrom : customsDate, 6, 9, destinationHub.timezone), destinationHub);
      add('customs_cleared', between(random, customsDate, 11, 16, destinationHub.timezone), destinationHub);
    } else if (late && random() < DELAY_SCAN_SHARE) {
      add('delayed', between(random, dueDate, 7, 10, destinationHub.timezone), destinationHub);
    }

    // The first attempt, where the recipient lives.
    add('arrived_at_facility', between(random, attemptDate, 3, 5.5, destination.timezone), destination);
    add('out_for_delivery', between(random, attemptDate, 6.5, 9.5, destination.timezone), destination);
    const attemptAt = between(random, attemptDate, 10, 18.5, destination.timezone);
    const hoursLater = (hours: number) => attemptAt + Math.floor(hours * 3_600_000);
    if (outcome === 'delivered') add(random() < NEIGHBOUR_SHARE ? 'delivered_to_neighbour' : 'delivered', attemptAt, destination);
    else {
      add('delivery_attempt_failed', attemptAt, destination);
      const followingDay = addWorkingDays(attemptDate, 1, destinationCalendar);
      if (outcome === 'address_issue' || outcome === 'redelivered') {
        if (outcome === 'address_issue') add('address_issue', hoursLater(0.1), destination);
        add('out_for_delivery', between(random, followingDay, 6.5, 9.5, destination.timezone), destination);
        add('delivered', between(random, followingDay, 10, 18.5, destination.timezone), destination);
      } else {
        add('available_for_pickup', hoursLater(1 + 2 * random()), destination);
        if (outcome === 'collected') {
          // Collected the same evening when the attempt was early enough, else within four working days.
          const waited = attemptAt < wall(attemptDate, 15 * 60, destination.timezone) && random() < 0.3 ? 0 : 1 + Math.floor(random() * 4);
          const collectedAt =
            waited === 0
              ? hoursLater(3.5 + 2 * random())
              : between(random, addWorkingDays(attemptDate, waited, destinationCalendar), 10, 19, destination.timezone);
          add('collected_by_recipient', collectedAt, destination);
        } else {
          const sentBack = addWorkingDays(attemptDate, PICKUP_HOLD_WORKING_DAYS, destinationCalendar);
          add('returning_to_sender', between(random, sentBack, 8, 12, destination.timezone), destination);
          const back = addWorkingDays(sentBack, Math.max(1, model.base), originCalendar);
          add('returned_to_sender', between(random, back, 10, 16, origin.timezone), origin);
        }
      }
    }
  }

  // In time order: scans in different timezones a night apart could tie or cross; each is kept after the one before.
  for (let i = 1; i < drafts.length; i++) if (drafts[i].at <= drafts[i - 1].at) drafts[i].at = drafts[i - 1].at + 60_000;
  const shown = drafts.filter((d) => d.at <= now);
  const events: SimulatedEvent[] = shown.map((d) => {
    return {
      event_key: d.key,
      time: localText(d.at, d.timezone).text,
      timezone: d.timezone,
      location: { place: d.place, country_code: d.country },
    };
  });
  const reached = outcome !== 'lost' && outcome !== 'stuck';
  return {
    at: created,
    shipment: {
      carrier_id: chosen.carrierId,
      shipping_service: chosen.service,
      sender_address: sender,
      recipient_address: recipient,
      created_at: new Date(created).toISOString(),
      events,
      truth: {
        outcome,
        acceptance_date: accepted,
        first_attempt_date: reached ? attemptDate : null,
        first_attempt_failed: reached && outcome !== 'delivered',
        transit: reached ? transit : null,
        base: model.base,
        on_time: model.onTime,
        pi: model.pi,
        late,
        cut: shown.length < drafts.length,
      },
    },
  };
}

// ── Seeded randomness ──────────────────────────────────────────────────────────────────────────────────────────

/** Four 32-bit words from a text (cyrb128), to seed sfc32. */
function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** sfc32 (Chris Doty-Humphrey's Small Fast Counting generator) seeded from a text: numbers in [0, 1). */
export function seeded(text: string): Random {
  let [a, b, c, d] = hash128(text);
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // The first outputs of a fresh state are poorly mixed.
  for (let i = 0; i < 12; i++) next();
  return next;
}

/** Nine digits of the seed, the start of every tracking number of its history. */
function seedDigits(seed: string | number): string {
  return String(hash128(`tracking|${seed}`)[0] % 1_000_000_000).padStart(9, '0');
}
