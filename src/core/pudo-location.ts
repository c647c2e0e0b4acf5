/**
 * The PudoLocation record of the interface (pick-up/drop-off points), split into what is stored
 * ({@link PudoLocationRecord}) and what a search adds ({@link PudoLocation}: `distance_meters`).
 */

/** Opening and cut-off times of one service on one day; also the CollectionPoint's `operating_hours_calc`. */
export interface OperatingHoursCalc {
  /** Service the hours apply to, e.g. `drop_off`. */
  service_name: string;
  /** Lower-case English day name, `monday` … `sunday`. */
  operating_day: string;
  /** IANA time zone the times are in. */
  time_zone: string;
  /** `HH:MM-HH:MM`, local time. */
  first_open_hours: string | null;
  /** Second opening window of the day (after a lunch break), `HH:MM-HH:MM`, or null. */
  second_open_hours: string | null;
  /** `HH:MM`: latest hand-over that still leaves the same day. */
  first_cutoff: string | null;
  second_cutoff: string | null;
}

export interface OpeningHours {
  /** Lower-case English day name. */
  day_of_week: string;
  /** `HH:MM`, local time. */
  open_hour: string;
  close_hour: string;
}

export interface CutoffHours {
  service: string;
  day_of_week: string;
  /** `HH:MM`, local time. */
  cutoff_at: string;
}

export interface ClosingPeriod {
  /** `YYYY-MM-DD`, inclusive. */
  from_date: string;
  to_date: string;
  reason: string;
}

export interface ValidityPeriod {
  /** `YYYY-MM-DD`. */
  from_date: string;
  /** `YYYY-MM-DD`, or null while the location has no planned end. */
  to_date: string | null;
}

export interface PudoAddress {
  /** The carrier's own type names, e.g. `parcel_shop`, `locker`. */
  location_types: string[];
  /** The same, mapped to the service's standard types (`parcel_shop`, `parcel_locker`, `post_office`). */
  mapped_location_types: string[];
  location_type: string;
  mapped_location_type: string;
  entity_reference: string;
  /** Name shown to people, e.g. the shop's name. */
  address_name: string;
  /** All address fields combined into one line. */
  full: string;
  line1: string;
  line2: string | null;
  line3: string | null;
  street_name: string;
  house_number: string;
  postal_code: string;
  city: string;
  state_or_province: string | null;
  region: string | null;
  country: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  phone: string | null;
}

/** A PUDO location as stored: every field of the interface except the per-query `distance_meters`. */
export interface PudoLocationRecord {
  pudo_location_uuid: string;
  /** Same value as `pudo_location_uuid`; the interface carries both. */
  uuid: string;
  /** 6-character carrier id. */
  carrier_id: string;
  /** The carrier's own identifier of the location. */
  pudo_location_id: string;
  address: PudoAddress;
  lat: number;
  lng: number;
  operating_hours_calc: OperatingHoursCalc[];
  opening_hours: OpeningHours[];
  cutoff_hours: CutoffHours[];
  closing_periods: ClosingPeriod[];
  validity_period: ValidityPeriod;
  /** e.g. `drop_off`, `pick_up`, `returns`. */
  services: string[];
  additional_info: Record<string, unknown>;
  /** ISO 8601 timestamp with offset. */
  updated_date: string;
}

/** A PUDO location as returned by a search: the record plus its distance from the searched point. */
export interface PudoLocation extends PudoLocationRecord {
  /** Great-circle distance from the searched point, whole metres. */
  distance_meters: number;
}

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
