import type { Generated } from 'kysely';

/**
 * Table types. Portable across SQLite and PostgreSQL: times are ISO 8601 UTC text
 * (lexically ordered), JSON documents are text, booleans are 0/1 integers.
 */
export interface AccountsTable {
  id: Generated<number>;
  account_uuid: string;
  name: string;
  features: string;
  /** 1: unknown request fields are refused (4030); 0: ignored and named in `Waybill-Ignored-Fields`. */
  strict_fields: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ApiCredentialsTable {
  id: Generated<number>;
  account_id: number;
  client_id: string;
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface CarrierConfigsTable {
  id: Generated<number>;
  account_id: number;
  carrier_reference: string;
  carrier_id: string;
  booking_outbound: number;
  booking_return: number;
  settings_sealed: string | null;
  created_at: string;
  updated_at: string;
  /** SHA-256 of the token a pushing carrier presents at /carrier-hooks/{carrier_id}/. */
  push_token_hash: Generated<string | null>;
  /** 1: the account's fallback, tracking numbers no other configuration claims (aggregators only). */
  fallback: Generated<number>;
}

export interface OrdersTable {
  id: Generated<number>;
  account_id: number;
  order_uuid: string;
  order_id: string;
  order_reference: string | null;
  source_type: string | null;
  source_name: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShipmentsTable {
  id: Generated<number>;
  account_id: number;
  shipment_uuid: string;
  shipment_id: string;
  tracking_number: string | null;
  carrier_reference: string | null;
  /** The carrier's 6-character id, kept so the Carrier record survives a removed configuration. */
  carrier_id: string | null;
  order_row_id: number | null;
  status: string;
  phase_key: string | null;
  source: string;
  shipment_type: string | null;
  tracking_page_reference: string;
  /** Every other field of the record, as JSON. */
  body: string;
  created_at: string;
  updated_at: string;
  /** When tracking began for the current tracking number + carrier; null when not tracked. */
  tracking_started_at: string | null;
  /** The next carrier poll; null when nothing is due (not tracked, or tracking ended). */
  next_poll_at: string | null;
  /** The last time the carrier's data changed anything (expiry counts from here). */
  last_tracking_update_at: string | null;
  /** When polls were first put off for the carrier credential's daily quota; null when not deferred. */
  poll_deferred_since: string | null;
  /**
   * A digest of the event keys of the last carrier answer stored in full: an answer with the same digest has
   * nothing new to store. Null until a poll stores one; cleared when the tracking number or carrier changes.
   */
  tracking_digest: string | null;
  /**
   * The carrier adapter's fingerprint of its data for the number in the last answer a poll stored in full: a
   * poll whose data has the same fingerprint is not mapped again. Null until one is stored; cleared with the digest.
   */
  tracking_fingerprint: string | null;
  /** Until when the carrier pushes this number's events (a push subscription); null when not subscribed. */
  push_subscribed_until: string | null;
  /** Not before this may the subscriber ask the carrier again: a worker's claim, or a day after a refusal. */
  push_retry_at: string | null;
  /** Failed polls in a row; the carrier adapter sees it as the attempt number. */
  poll_failures: Generated<number>;
  /** The carrier's proof of delivery once fetched: JSON {key, reference, content_type}. */
  pod_file: string | null;
  /** The CollectionPoint record (JSON) of a booking routed to a pick-up/drop-off location. */
  collection_point: string | null;
  /** The last webhook sequence number given to an event of this shipment. */
  webhook_sequence: Generated<number>;
}

export interface JobsTable {
  id: Generated<number>;
  kind: string;
  account_id: number | null;
  payload: string;
  status: 'queued' | 'running' | 'done' | 'dead';
  run_at: string;
  attempts: Generated<number>;
  max_attempts: number;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface ShipmentTagsTable {
  shipment_row_id: number;
  account_id: number;
  tag: string;
}

export interface TrackingEventsTable {
  id: Generated<number>;
  shipment_row_id: number;
  dedupe_key: string;
  origin: string;
  event: string;
  event_key: string | null;
  phase_key: string | null;
  time_text: string;
  time_utc: string;
  timezone: string | null;
  carrier_name: string | null;
  /** The v5.2 location object as JSON, or null. */
  location: string | null;
  additional_info: string;
  /** The carrier's own order, for events at the same instant. */
  sequence: number;
  created_at: string;
}

export interface ReturnsTable {
  id: Generated<number>;
  account_id: number;
  return_uuid: string;
  /** The merchant's return id (usable as RMA); unique in the account when given. */
  return_id: string | null;
  shipment_row_id: number;
  order_id: string | null;
  /** One of the interface's return_status values, e.g. `pending approval`. */
  status: string;
  /** The rest of the ticket (refund, costs, methods, notes, proofs) as JSON. */
  details: string;
  requested_at: string;
  created_at: string;
  updated_at: string;
}

export interface RequestReplaysTable {
  id: Generated<number>;
  account_id: number;
  scope: string;
  replay_key: string;
  request_hash: string;
  /** Null while the first request is still being handled. */
  status_code: number | null;
  response: string | null;
  created_at: string;
  expires_at: string;
}

export interface BookingsTable {
  id: Generated<number>;
  account_id: number;
  booking_uuid: string;
  shipment_row_id: number;
  carrier_reference: string;
  carrier_id: string;
  /**
   * `booking` while the carrier is asked, then `booked`; `unknown` when the carrier was asked and never
   * answered (checked by a `booking.reconcile` job, or released by the merchant's cancellation).
   */
  status: string;
  type_of_shipment: string;
  shipping_service: string | null;
  carrier_shipment_identifier: string | null;
  tracking_number: string | null;
  pudo_location_uuid: string | null;
  carrier_additional_info: string;
  created_at: string;
  updated_at: string;
}

export interface BookingCancellationsTable {
  id: Generated<number>;
  account_id: number;
  booking_uuid: string;
  shipment_row_id: number;
  carrier_reference: string;
  carrier_id: string;
  carrier_shipment_identifier: string | null;
  tracking_number: string | null;
  /** The `bookings` row as it stood, JSON. */
  booking: string;
  /** `voided` (the carrier confirmed) or `released` (the carrier's outcome was never known). */
  outcome: string;
  cancelled_at: string;
}

export interface CarrierPudoCacheTable {
  id: Generated<number>;
  /** `q:<carrier>:<query hash>` (a search's answer: records) or `l:<pudo_location_uuid>` (one record). */
  cache_key: string;
  carrier_id: string;
  value: string;
  expires_at: string;
}

export interface DocumentsTable {
  id: Generated<number>;
  account_id: number;
  document_uuid: string;
  shipment_row_id: number;
  booking_row_id: number | null;
  document_id: string;
  name: string;
  type: string;
  file_format: string;
  content_type: string;
  /** File-store key; null while the carrier is still generating the file. */
  file_key: string | null;
  /** `pending` or `ready`. */
  status: string;
  additional_info: string;
  created_at: string;
  updated_at: string;
}

/** A stored file's bytes (see src/documents/file-store.ts): labels under `documents/…`, proofs of delivery under `pod/…`. */
export interface DocumentFilesTable {
  file_key: string;
  content_type: string;
  bytes: Uint8Array;
  stored_at: string;
}

export interface PudoLocationsTable {
  id: Generated<number>;
  carrier_id: string;
  pudo_location_uuid: string;
  pudo_location_id: string;
  lat: number;
  lng: number;
  postal_code: string | null;
  country_code: string | null;
  /** The PudoLocation record without distance, as JSON. */
  record: string;
  updated_at: string;
}

export interface WebhookEndpointsTable {
  id: Generated<number>;
  account_id: number;
  webhook_uuid: string;
  url: string;
  format: 'v5' | 'v5.2';
  /** JSON list of event types; null = every type. */
  events: string | null;
  enabled: number;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: string | null;
  disabled_reason: string | null;
  /** Since when every delivery to it has failed; null while it answers. */
  failing_since: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventsTable {
  id: Generated<number>;
  account_id: number;
  event_id: string;
  type: string;
  shipment_row_id: number | null;
  sequence: number;
  /** JSON ids of the related records (return, booking, document). */
  refs: string;
  created_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  account_id: number;
  endpoint_id: number;
  event_row_id: number;
  /** pending, delivered, failed, cancelled */
  status: string;
  /** The body, fixed at the first attempt so every retry sends the same. */
  body: string | null;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  endpoint_id: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
}

/** A console session ended by signing out, until its token would have expired anyway. */
export interface ConsoleSessionRevocationsTable {
  /** SHA-256 (hex) of the session's access token. */
  session_hash: string;
  account_id: number;
  expires_at: string;
}

/** A carrier configuration being polled by one worker (`holder`) until `leased_until`. */
export interface PollLeasesTable {
  account_id: number;
  carrier_reference: string;
  holder: string;
  leased_until: string;
}

/** Numbers an aggregator was told to stop following, until a poll has it track them again (0025_tracking_stops). */
export interface TrackingStopsTable {
  account_id: number;
  carrier_reference: string;
  /** The number as carrier detection reads it (`normalizeTrackingNumber`: spaces and dashes removed, upper case). */
  tracking_key: string;
  stopped_at: string;
}

/** Each account's returns policy and portal reference (0027_return_policies). */
export interface ReturnPoliciesTable {
  account_id: number;
  /** Random and unguessable, in the portal's address; never changes. */
  portal_reference: string;
  /** The policy as JSON (`ReturnPolicy`). */
  policy: string;
  created_at: string;
  /** When the merchant last saved the policy; null while it is the default. */
  updated_at: string | null;
}

export interface NotificationSettingsTable {
  id: Generated<number>;
  account_id: number;
  settings: string;
  updated_at: string;
}

export interface NotificationTemplatesTable {
  id: Generated<number>;
  account_id: number;
  trigger: string;
  channel: string;
  language: string;
  subject: string | null;
  body: string;
  updated_at: string;
}

export interface NotificationsTable {
  id: Generated<number>;
  notification_uuid: string;
  account_id: number;
  shipment_row_id: number;
  trigger: string;
  channel: string;
  recipient: string;
  language: string;
  status: string;
  reason: string | null;
  message_id: string;
  provider_id: string | null;
  attempts: Generated<number>;
  event_at: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
}

export interface NotificationSuppressionsTable {
  id: Generated<number>;
  account_id: number;
  channel: string;
  recipient: string;
  /** 0: every shipment of the account. */
  shipment_row_id: number;
  reason: string;
  created_at: string;
}

/** Transit samples of a lane cell by acceptance week (0023_delivery_intelligence). */
export interface TransitHistogramsTable {
  scope: string;
  level: number;
  cell_key: string;
  week: string;
  transit: number;
  shipments: number;
}

/**
 * A number per shipment that changes with every write to what its rendering is made from (its row, order, events,
 * documents, return ticket), kept by triggers (0026_shipment_versions): kept renderings are checked against it. On
 * SQLite a new shipment's row is written by the shipments repository (0030_shipment_version_insert_without_trigger).
 */
export interface ShipmentVersionsTable {
  shipment_row_id: number;
  version: number;
}

/** Shipments whose journey changed since delivery intelligence last counted them (0024_delivery_learning_queue). */
export interface DeliveryLearningTable {
  shipment_row_id: number;
  queued_at: string;
}

/** Per tracked shipment, the milestones delivery analytics count (0023_delivery_intelligence). */
export interface DeliveryFactsTable {
  shipment_row_id: number;
  account_id: number;
  day: string;
  lane_key: string;
  carrier_reference: string;
  carrier_id: string;
  shipping_service: string;
  origin_country: string;
  destination_country: string;
  destination_prefix: string;
  accepted_date: string | null;
  first_attempt_date: string | null;
  first_attempt_phase: string | null;
  delivered: number;
  transit: number | null;
  promised_from: string | null;
  promised_to: string | null;
  exception: number;
  returned: number;
  sampled: number;
  last_scan_at: string | null;
}

/** Delivery analytics counts per account, day and lane (0023_delivery_intelligence). */
export interface DeliveryDailyTable {
  account_id: number;
  day: string;
  lane_key: string;
  carrier_reference: string;
  carrier_id: string;
  shipping_service: string;
  origin_country: string;
  destination_country: string;
  destination_prefix: string;
  shipments: number;
  accepted: number;
  first_attempts: number;
  first_attempt_successes: number;
  delivered: number;
  on_time: number;
  promised: number;
  exceptions: number;
  returned_to_sender: number;
}

/** Transit histogram of the first attempts counted in a `delivery_daily` row. */
export interface DeliveryDailyTransitsTable {
  account_id: number;
  day: string;
  lane_key: string;
  transit: number;
  /** Against the original window: 'early', 'on_time', 'late', or 'none' (no window). */
  timing: string;
  shipments: number;
}

/**
 * `delivery_daily` summed per ISO week or calendar month (0023_delivery_intelligence): `unit` 'week' or 'month',
 * `start` its first day, and the histogram of `delivery_daily_transits` as JSON text
 * `[[transit, early, on_time, late, none], …]` sorted by transit.
 */
export interface DeliveryRollupsTable extends Omit<DeliveryDailyTable, 'day'> {
  unit: string;
  start: string;
  transits: string;
}

export interface Database {
  accounts: AccountsTable;
  api_credentials: ApiCredentialsTable;
  carrier_configs: CarrierConfigsTable;
  orders: OrdersTable;
  shipments: ShipmentsTable;
  poll_leases: PollLeasesTable;
  tracking_stops: TrackingStopsTable;
  shipment_tags: ShipmentTagsTable;
  tracking_events: TrackingEventsTable;
  jobs: JobsTable;
  returns: ReturnsTable;
  return_policies: ReturnPoliciesTable;
  request_replays: RequestReplaysTable;
  console_session_revocations: ConsoleSessionRevocationsTable;
  bookings: BookingsTable;
  booking_cancellations: BookingCancellationsTable;
  carrier_pudo_cache: CarrierPudoCacheTable;
  documents: DocumentsTable;
  document_files: DocumentFilesTable;
  pudo_locations: PudoLocationsTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_events: WebhookEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notification_settings: NotificationSettingsTable;
  notification_templates: NotificationTemplatesTable;
  notifications: NotificationsTable;
  notification_suppressions: NotificationSuppressionsTable;
  transit_histograms: TransitHistogramsTable;
  delivery_facts: DeliveryFactsTable;
  delivery_learning: DeliveryLearningTable;
  shipment_versions: ShipmentVersionsTable;
  delivery_daily: DeliveryDailyTable;
  delivery_daily_transits: DeliveryDailyTransitsTable;
  delivery_rollups: DeliveryRollupsTable;
}
