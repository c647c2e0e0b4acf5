/** The descriptive Carrier record of the interface. */
export interface CarrierRecord {
  /** 6-character carrier identifier. */
  id: string;
  name: string;
  /** Operating countries, ISO 3166-1 alpha-2. */
  country_iso: string[];
  language: string[] | null;
  supported_languages: string[];
  contact: string | null;
  site_link: string | null;
}

/**
 * A carrier adapter. Each carrier is a pure mapping part (their payloads and codes ↔ our records and
 * standard keys) and a thin transport; this is the contract the rest of the service sees.
 */
export interface CarrierAdapter {
  /** The descriptive record, also the source of the 6-character id. */
  readonly record: CarrierRecord;
}
