/**
 * The fields Waybill reads from La Poste's tracking API "Suivi v2" (`GET /suivi/v2/idships/{idship}`), as its
 * OpenAPI document on developer.laposte.fr (catalogue entry `suivi@2`) describes them. Every field is optional
 * and typed `unknown` where La Poste's answers vary: the mapper checks each one before use and never throws.
 */

/** One tracking event. La Poste lists them newest first ("anti chronological order"). */
export interface LaPosteEvent {
  /** Event code, e.g. `ET1` (see lapost.codes.ts). */
  code?: unknown;
  /** The event's text in the requested language. */
  label?: unknown;
  /** `aaaa-mm-jjThh:mn:ss+hh:mn`: local time with its offset. */
  date?: unknown;
  /** Sequence number of the event (required by the schema, not described). */
  order?: unknown;
}

/** One of the five steps of La Poste's summary timeline (not read for events: the `event` list is complete). */
export interface LaPosteStep {
  id?: unknown;
  shortLabel?: unknown;
  status?: unknown;
  /** 1 OK, 0 information, -1 KO. */
  type?: unknown;
  date?: unknown;
  country?: unknown;
}

export interface LaPosteContextData {
  /** `{ deliveryChoice: 0 | 1 | 2 }`: no delivery choice, possible, chosen. */
  deliveryChoice?: { deliveryChoice?: unknown } | unknown;
  /** Where the parcel waits for collection: `name`, `type` (`BDP`, `A2P`…). */
  removalPoint?: { name?: unknown; type?: unknown } | unknown;
  /** Country codes of origin and delivery. */
  originCountry?: unknown;
  arrivalCountry?: unknown;
}

/** The unified shipment of La Poste (letters), Colissimo and Chronopost. */
export interface LaPosteShipment {
  /** 11 to 15 alphanumeric characters. */
  idShip?: unknown;
  /** 1 letters (Courrier), 3 Chronopost, 4 Colissimo. */
  holder?: unknown;
  product?: unknown;
  /** "Is object delivered?": La Poste's own end-of-journey flag. */
  isFinal?: unknown;
  entryDate?: unknown;
  /** Estimated delivery, date-time with offset. */
  estimDate?: unknown;
  /** Estimated delivery window, date-times with offset. */
  estimHourMin?: unknown;
  estimHourMax?: unknown;
  /** Actual delivery time (not an estimate). */
  deliveryDate?: unknown;
  contextData?: LaPosteContextData | unknown;
  url?: unknown;
  event?: LaPosteEvent[] | unknown;
  timeline?: LaPosteStep[] | unknown;
}

/**
 * One number's answer. A call for one number answers one envelope (HTTP 200; 404 or 400 with `returnCode` and
 * `returnMessage` when the number is unknown or invalid); a call for several answers an array of envelopes
 * (HTTP 207 when they differ), each with its own `returnCode`.
 */
export interface LaPosteEnvelope {
  lang?: unknown;
  scope?: unknown;
  /** 200 found; 104 (and other 1xx) nothing to show yet; 400 invalid number; 404 unknown; 504 La Poste timeout. */
  returnCode?: unknown;
  /** A sentence for the end customer, in the requested language. */
  returnMessage?: unknown;
  /** The number asked, on envelopes without a shipment. */
  idShip?: unknown;
  shipment?: LaPosteShipment | unknown;
}

/** The languages `lang` accepts. */
export const LAPOSTE_LANGUAGES = ['fr_FR', 'en_GB', 'de_DE', 'es_ES', 'it_IT', 'nl_NL'] as const;

export type LaPosteLanguage = (typeof LAPOSTE_LANGUAGES)[number];
