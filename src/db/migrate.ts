import { type Kysely, type Migration, type MigrationProvider, Migrator } from 'kysely';
import * as foundation from './migrations/0001_foundation.js';
import * as shipments from './migrations/0002_shipments.js';
import * as jobsAndTracking from './migrations/0003_jobs_and_tracking.js';
import * as returns from './migrations/0004_returns.js';
import * as bookings from './migrations/0005_bookings_documents_pudo.js';
import * as webhooks from './migrations/0006_webhooks.js';
import * as carrierPush from './migrations/0007_carrier_push.js';
import * as consoleSessionRevocations from './migrations/0008_console_session_revocations.js';
import * as accountStrictFields from './migrations/0009_account_strict_fields.js';
import * as documentBytes from './migrations/0010_document_bytes.js';
import * as pollDeferral from './migrations/0012_poll_deferral.js';
import * as pushSubscriptions from './migrations/0013_push_subscriptions.js';
import * as bookingCancellations from './migrations/0014_booking_cancellations_pudo_cache.js';
import * as pollClaimsByConfiguration from './migrations/0015_poll_claims_by_configuration.js';
import * as notifications from './migrations/0016_notifications.js';
import * as trackingDigest from './migrations/0017_tracking_digest.js';
import * as trackingFingerprint from './migrations/0018_tracking_fingerprint.js';
import * as pollClaimsWithoutGlobalIndex from './migrations/0019_poll_claims_without_global_index.js';
import * as pollLeases from './migrations/0020_poll_leases.js';
import * as carrierFallback from './migrations/0021_carrier_fallback.js';
import * as trackingNumberKey from './migrations/0022_tracking_number_key.js';
import * as deliveryIntelligence from './migrations/0023_delivery_intelligence.js';
import * as deliveryLearningQueue from './migrations/0024_delivery_learning_queue.js';
import * as trackingStops from './migrations/0025_tracking_stops.js';
import * as shipmentVersions from './migrations/0026_shipment_versions.js';
import * as returnPolicies from './migrations/0027_return_policies.js';
import * as trackingLookupsByKey from './migrations/0028_tracking_lookups_by_key.js';
import * as shipmentTagsWithoutRowid from './migrations/0029_shipment_tags_without_rowid.js';
import * as shipmentVersionInsertWithoutTrigger from './migrations/0030_shipment_version_insert_without_trigger.js';

/** Migrations are listed here in order, so the built service needs no directory scan. */
export const migrations: Record<string, Migration> = {
  '0001_foundation': foundation,
  '0002_shipments': shipments,
  '0003_jobs_and_tracking': jobsAndTracking,
  '0004_returns': returns,
  '0005_bookings_documents_pudo': bookings,
  '0006_webhooks': webhooks,
  '0007_carrier_push': carrierPush,
  '0008_console_session_revocations': consoleSessionRevocations,
  '0009_account_strict_fields': accountStrictFields,
  '0010_document_bytes': documentBytes,
  '0012_poll_deferral': pollDeferral,
  '0013_push_subscriptions': pushSubscriptions,
  '0014_booking_cancellations_pudo_cache': bookingCancellations,
  '0015_poll_claims_by_configuration': pollClaimsByConfiguration,
  '0016_notifications': notifications,
  '0017_tracking_digest': trackingDigest,
  '0018_tracking_fingerprint': trackingFingerprint,
  '0019_poll_claims_without_global_index': pollClaimsWithoutGlobalIndex,
  '0020_poll_leases': pollLeases,
  '0021_carrier_fallback': carrierFallback,
  '0022_tracking_number_key': trackingNumberKey,
  '0023_delivery_intelligence': deliveryIntelligence,
  '0024_delivery_learning_queue': deliveryLearningQueue,
  '0025_tracking_stops': trackingStops,
  '0026_shipment_versions': shipmentVersions,
  '0027_return_policies': returnPolicies,
  '0028_tracking_lookups_by_key': trackingLookupsByKey,
  '0029_shipment_tags_without_rowid': shipmentTagsWithoutRowid,
  '0030_shipment_version_insert_without_trigger': shipmentVersionInsertWithoutTrigger,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Applies every migration not applied yet. On PostgreSQL, `schema` names where the migration bookkeeping
 * lives: without it, a bookkeeping table in any other schema of the database would be taken for ours.
 */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<string[]> {
  const migrator = new Migrator({ db, provider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
