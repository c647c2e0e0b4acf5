/**
 * The sandbox carrier's own wire format: what its (simulated) HTTP API answers. It is deliberately
 * unlike our records, as a real carrier's would be: its own status codes, date and time in separate
 * fields, scans newest first, coordinates as numbers.
 */

/** The sandbox carrier's status codes. `XDK` is one our mapping does not know, as happens with real carriers. */
export const SANDBOX_CODES = [
  'LBL',
  'EDI',
  'PCK',
  'ARR',
  'DEP',
  'LNH',
  'CUS',
  'CLR',
  'XDK',
  'OFD',
  'NDA',
  'PUP',
  'DLV',
  'DLN',
  'DSP',
  'COL',
  'ADR',
  'DMG',
  'LST',
  'DLY',
  'REF',
  'RTS',
  'RTD',
] as const;

export type SandboxCode = (typeof SANDBOX_CODES)[number];

/** Where a scan happened, as the carrier describes it. */
export interface SandboxScanLocation {
  /** Facility or shop name; null for a recipient's address. */
  facility: string | null;
  type: 'depot' | 'hub' | 'service_point' | 'address';
  street: string | null;
  postcode: string;
  city: string;
  state: string | null;
  country: string;
  countryCode: string;
  lat: number;
  lon: number;
  /** IANA timezone of the place. */
  tz: string;
}

export interface SandboxScan {
  code: string;
  /** The carrier's description, in its own words. */
  text: string;
  /** Local date `YYYY-MM-DD`. */
  date: string;
  /** Local time `HH:MM:SS`; null when the carrier only knows the day. */
  time: string | null;
  /** `±HH:MM` when the scanner reports it; otherwise the time is local to `location.tz`. */
  utcOffset: string | null;
  location: SandboxScanLocation | null;
  /** Set when the scan overrides an earlier final scan (a wrong delivery scan, a return after delivery). */
  amends?: boolean;
}

/** GET /v1/shipments/{trackingNumber}/scans, status 200. */
export interface SandboxShipmentPayload {
  trackingNumber: string;
  service: 'PARCEL' | 'EXPRESS';
  currentStatus: { code: string; text: string };
  /** Each bound is a date (`YYYY-MM-DD`) or a date-time with offset. */
  estimatedDelivery: { earliest: string; latest: string } | null;
  /** Newest first. */
  scans: SandboxScan[];
  proofOfDelivery: { documentId: string; format: 'PNG' } | null;
}

/** The sandbox API's error body (404, 429, 5xx). */
export interface SandboxErrorBody {
  error: { code: string; message: string };
}

/** A simulated HTTP exchange: a response, or no response within the transport's time limit. */
export type SandboxResponse =
  | { outcome: 'response'; status: number; headers: Record<string, string>; body: unknown }
  | { outcome: 'timeout'; afterMs: number };

/** GET /v1/pod/{documentId}: the file, or an error. */
export type SandboxFileResponse =
  | { outcome: 'response'; status: 200; contentType: string; content: Buffer }
  | { outcome: 'response'; status: number; contentType: 'application/json'; body: SandboxErrorBody };
