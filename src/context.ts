import type { Redis } from 'ioredis';
import pino, { type Logger } from 'pino';
import { isPhaseKey, phaseName } from './carriers/phases.js';
import { type CarrierRegistry, defaultCarrierRegistry } from './carriers/registry.js';
import { type CarrierToolkit, carrierToolkit } from './carriers/sdk/toolkit.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { CarrierWaits } from './core/carrier-wait.js';
import { type DatabaseHandle, openDatabase } from './db/connection.js';
import { migrateToLatest } from './db/migrate.js';
import { AccountsRepository } from './db/repositories/accounts.repository.js';
import { CarrierConfigsRepository } from './db/repositories/carrier-configs.repository.js';
import { CredentialsRepository } from './db/repositories/credentials.repository.js';
import { Repositories } from './db/repositories/index.js';
import { DatabaseFileStore } from './documents/database-file-store.js';
import { moveDiskFilesIn } from './documents/disk-file-import.js';
import type { FileStore } from './documents/file-store.js';
import { type LabelRenderer, PooledLabelRenderer } from './documents/label-renderer.service.js';
import { LogoChecks } from './documents/logo-checks.js';
import { AccountsService } from './domain/accounts.service.js';
import { AuthService } from './domain/auth.service.js';
import { BookingCancellations } from './domain/bookings/booking-cancellation.service.js';
import { BookingCompletion } from './domain/bookings/booking-completion.js';
import { BookingsService } from './domain/bookings/bookings.service.js';
import { CarrierConfigsService } from './domain/carrier-configs.service.js';
import { CarrierPushService } from './domain/carrier-push.service.js';
import { DeliveryLearner } from './domain/delivery/delivery-learner.js';
import { DeliveryPredictor } from './domain/delivery/delivery-predictor.js';
import { TransitCells } from './domain/delivery/transit-cells.js';
import { DocumentsService } from './domain/documents/documents.service.js';
import { Mailer } from './domain/notifications/email/mailer.js';
import { MessageComposer } from './domain/notifications/message-composer.js';
import { ReturnNotifyingSink, ShipmentNotifications } from './domain/notifications/notification-hooks.js';
import { NotificationPlanner } from './domain/notifications/notification-planner.js';
import { NotificationSettingsService } from './domain/notifications/notification-settings.js';
import { NotificationsService } from './domain/notifications/notifications.service.js';
import type { SmsProvider } from './domain/notifications/sms/sms-provider.js';
import { twilioProvider } from './domain/notifications/sms/twilio.provider.js';
import { SmsHooksService } from './domain/notifications/sms-hooks.service.js';
import { PudoService } from './domain/pudo/pudo.service.js';
import { ReturnPolicyService } from './domain/returns/return-policy.service.js';
import { ReturnsService } from './domain/returns/returns.service.js';
import { ReturnsInfoReader } from './domain/returns/returns-info.reader.js';
import { PortalLabelSink } from './domain/returns-portal/portal-label.sink.js';
import { ReturnLabels } from './domain/returns-portal/return-labels.js';
import { ReturnsPortalService } from './domain/returns-portal/returns-portal.service.js';
import { ManualEventsService } from './domain/shipments/manual-events.service.js';
import { ProofOfDeliveryService } from './domain/shipments/proof-of-delivery.service.js';
import { ShipmentReader } from './domain/shipments/shipment.reader.js';
import { ShipmentExtrasOfCapabilities } from './domain/shipments/shipment-extras.js';
import { ShipmentsService } from './domain/shipments/shipments.service.js';
import { TrackingService } from './domain/shipments/tracking.service.js';
import { TrackingFollowers } from './domain/shipments/tracking-followers.js';
import { TrackingStops } from './domain/shipments/tracking-stops.js';
import { WebhookEndpointsService } from './domain/webhooks/webhook-endpoints.service.js';
import { WebhookOutbox } from './domain/webhooks/webhook-outbox.js';
import { WebhookPayloads } from './domain/webhooks/webhook-payload.js';
import { shipmentSerializers } from './http/shipment-serializers.js';
import { BookingReconcileJob } from './jobs/booking-reconcile.job.js';
import { CarrierPushJob } from './jobs/carrier-push.job.js';
import { CarrierStopJob } from './jobs/carrier-stop.job.js';
import { DeliveryLearningTask } from './jobs/delivery-learning.task.js';
import { HousekeepingTask } from './jobs/housekeeping.task.js';
import { LabelRenderJob } from './jobs/label-render.job.js';
import { NotificationSendJob } from './jobs/notification-send.job.js';
import { PushSubscriber } from './jobs/push-subscriber.js';
import { ReturnLabelJob } from './jobs/return-label.job.js';
import { TrackingPoller } from './jobs/tracking-poller.js';
import { WebhookDeliveryJob } from './jobs/webhook-delivery.job.js';
import { Worker } from './jobs/worker.js';
import { loadAdminToken, Secrets } from './secrets.js';

/** Everything one process holds: configuration, database, and the services built on them. */
export interface AppContext {
  config: Config;
  clock: Clock;
  database: DatabaseHandle;
  secrets: Secrets;
  adminToken: string;
  adminTokenFile: string | null;
  carriers: CarrierRegistry;
  /** Transport, token cache, limits and metrics the carrier adapters share. */
  carrierKit: CarrierToolkit;
  auth: AuthService;
  accounts: AccountsService;
  carrierConfigs: CarrierConfigsService;
  repos: Repositories;
  shipments: ShipmentsService;
  shipmentReader: ShipmentReader;
  manualEvents: ManualEventsService;
  tracking: TrackingService;
  returns: ReturnsService;
  returnPolicies: ReturnPolicyService;
  /** The consumer's returns portal (`/returns/{portal_reference}`). */
  returnsPortal: ReturnsPortalService;
  files: FileStore;
  labels: LabelRenderer;
  documents: DocumentsService;
  proofOfDelivery: ProofOfDeliveryService;
  pudo: PudoService;
  bookings: BookingsService;
  bookingCancellations: BookingCancellations;
  /** What each request may wait on carriers; stopped with the process (src/core/carrier-wait.ts). */
  carrierWaits: CarrierWaits;
  labelJob: LabelRenderJob;
  webhookEndpoints: WebhookEndpointsService;
  carrierPush: CarrierPushService;
  notificationSettings: NotificationSettingsService;
  notifications: NotificationsService;
  smsHooks: SmsHooksService;
  /** Predicted delivery windows and the facts delivery analytics count (src/domain/delivery). */
  deliveryLearner: DeliveryLearner;
  /** Counts the shipments tracking changes queued for delivery intelligence (a worker's periodic task). */
  deliveryLearning: DeliveryLearningTask;
  worker: Worker;
  log: Logger;
  close(): Promise<void>;
}

export interface ContextOptions {
  clock?: Clock;
  /** PostgreSQL schema to work in (tests give each suite its own). */
  pgSchema?: string;
  migrate?: boolean;
  logger?: Logger;
  /** Shares carrier tokens between processes (the server's connection, when REDIS_URL is set). */
  redis?: Redis | null;
}

export async function createContext(config: Config, options: ContextOptions = {}): Promise<AppContext> {
  const clock = options.clock ?? systemClock;
  const log = options.logger ?? pino({ level: config.logLevel, name: 'waybill' });
  const database = openDatabase({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    sqliteSynchronous: config.sqliteSynchronous,
    sqliteCommitWindowMs: config.sqliteCommitWindowMs,
    pgPreparedStatements: config.pgPreparedStatements,
    pgSchema: options.pgSchema,
    onIdleConnectionError: (error) => log.warn({ err: error }, 'PostgreSQL ended an idle connection; the next query opens a new one'),
  });
  try {
    if (options.migrate !== false)
      await migrateToLatest(database.db, database.dialect === 'postgres' ? (options.pgSchema ?? 'public') : undefined);
  } catch (error) {
    await database.close();
    throw error;
  }
  const secrets = Secrets.load(config.secretKey, config.dataDir);
  const admin = loadAdminToken(config.adminToken, config.dataDir);
  const carrierKit = carrierToolkit({
    env: config.carrierEnv,
    redis: options.redis ?? null,
    seal: (plain) => secrets.encrypt(plain),
    unseal: (sealed) => secrets.decrypt(sealed),
    now: () => clock.now().getTime(),
  });
  const carriers = defaultCarrierRegistry(carrierKit);
  const credentialsRepo = new CredentialsRepository(database.db);
  const auth = new AuthService(credentialsRepo, secrets, clock, config.credentialCacheSeconds * 1000);
  const accounts = new AccountsService(new AccountsRepository(database.db), credentialsRepo, auth, clock);
  const carrierConfigs = new CarrierConfigsService(
    new CarrierConfigsRepository(database.db),
    carriers,
    secrets,
    clock,
    config.carrierConfigCacheSeconds * 1000,
  );
  const repos = new Repositories(database.db, database.dialect);
  const files = new DatabaseFileStore(repos.documentFiles, clock);
  // Before anything is served, so no ready document is answered without its file (see docs/operations.md).
  await moveDiskFilesIn(config.dataDir, repos.documentFiles, () => clock.now(), log).catch(async (error) => {
    await database.close();
    throw error;
  });
  const labels = new PooledLabelRenderer();
  const documents = new DocumentsService(repos, files, clock, secrets.urlKey, config.publicUrl);
  const logoChecks = new LogoChecks();
  const returnPolicies = new ReturnPolicyService(repos, clock, config.publicUrl, files, logoChecks);
  const proofOfDelivery = new ProofOfDeliveryService(files, clock, secrets.urlKey, config.publicUrl);
  const webhookOutbox = new WebhookOutbox(clock);
  const notificationSettings = new NotificationSettingsService(repos, secrets, config.notifications, clock);
  const planner = new NotificationPlanner(notificationSettings, config.notifications.smtpFrom);
  // Every event goes to webhooks; return tickets' decisions also to the consumer.
  const outbox = new ReturnNotifyingSink(webhookOutbox, planner, () => clock.now().toISOString());
  const shipmentReader = new ShipmentReader(
    repos,
    carriers,
    (key) => (isPhaseKey(key) ? phaseName(key) : null),
    shipmentSerializers(),
    config.renderCacheMegabytes * 1_048_576,
    new ShipmentExtrasOfCapabilities(documents, new ReturnsInfoReader(repos), proofOfDelivery),
    database.changes,
    clock,
  );
  const trackingStops = new TrackingStops(carriers, config.pollLeaseMs);
  const shipments = new ShipmentsService(repos, outbox, clock, trackingStops, shipmentReader);
  // A portal return the merchant approves gets its label booked by a job.
  const returns = new ReturnsService(repos, shipments, new PortalLabelSink(outbox, () => clock.now().toISOString()), clock);
  const transitCells = new TransitCells(() => clock.now().getTime());
  const deliveryLearner = new DeliveryLearner(new DeliveryPredictor(transitCells), transitCells, config.predictionScope);
  const deliveryLearning = new DeliveryLearningTask(repos, deliveryLearner);
  const trackingFollowers = new TrackingFollowers(returns, outbox, new ShipmentNotifications(planner), deliveryLearner);
  const manualEvents = new ManualEventsService(
    repos,
    clock,
    (id) => (id ? (carriers.get(id)?.record.name ?? null) : null),
    trackingFollowers,
  );
  const tracking = new TrackingService(
    repos,
    clock,
    { windowMs: config.trackingWindowDays * 86_400_000 },
    proofOfDelivery,
    trackingFollowers,
    trackingStops,
  );
  const pudo = new PudoService(repos, carriers, carrierConfigs, clock);
  const bookingCompletion = new BookingCompletion(repos, documents, labels, files, clock, log, returns, outbox, trackingStops);
  const bookings = new BookingsService(repos, carriers, carrierConfigs, pudo, bookingCompletion, clock, config.bookingLeaseMs);
  const carrierWaits = new CarrierWaits(config.carrierWait);
  const returnLabels = new ReturnLabels(repos, bookings, carrierWaits);
  const returnsPortal = new ReturnsPortalService(
    repos,
    returnPolicies,
    returns,
    returnLabels,
    carrierWaits,
    documents,
    pudo,
    clock,
    secrets.urlKey,
  );
  const bookingCancellations = new BookingCancellations(repos, carriers, carrierConfigs, files, returns, outbox, clock);
  const labelJob = new LabelRenderJob(repos, labels, files, clock, outbox);
  const webhookEndpoints = new WebhookEndpointsService(repos, secrets, clock, config.allowPrivateWebhooks);
  const webhookJob = new WebhookDeliveryJob(
    repos,
    webhookEndpoints,
    new WebhookPayloads(repos, shipmentReader, documents, pudo),
    clock,
    config.allowPrivateWebhooks,
  );
  const carrierPush = new CarrierPushService(repos, carriers, carrierConfigs, tracking, clock, config.publicUrl, secrets.hookKey);
  const twilio = twilioProvider({ baseUrl: config.notifications.twilioBaseUrl });
  const smsProviders = new Map<string, SmsProvider>([[twilio.id, twilio as unknown as SmsProvider]]);
  const smsProviderOf = (id: string) => smsProviders.get(id);
  const composer = new MessageComposer(carriers, (carrierId, uuid) => pudo.find(carrierId, uuid), config.publicUrl, secrets.urlKey);
  const notifications = new NotificationsService(repos, composer, clock);
  const smsHooks = new SmsHooksService(repos, notificationSettings, notifications, smsProviderOf, outbox, clock);
  const { smtpUrl } = config.notifications;
  const mailer = smtpUrl ? new Mailer({ ...config.notifications, smtpUrl }) : null;
  const notificationJob = new NotificationSendJob(
    repos,
    notificationSettings,
    composer,
    mailer,
    config.notifications.smtpFrom,
    smsProviderOf,
    outbox,
    clock,
    log,
    config.notifications.recipientLimitPerHour,
    config.publicUrl,
  );
  const poller = new TrackingPoller(repos, carriers, carrierConfigs, tracking, clock, log, { leaseMs: config.pollLeaseMs });
  const worker = new Worker(
    repos,
    clock,
    log,
    [
      labelJob,
      webhookJob,
      new CarrierPushJob(carrierPush),
      new BookingReconcileJob(repos, carriers, carrierConfigs, bookingCompletion, clock),
      new CarrierStopJob(repos, carriers, carrierConfigs, clock),
      notificationJob,
      new ReturnLabelJob(repos, returnLabels),
    ],
    [
      poller,
      new PushSubscriber(repos, carriers, carrierConfigs, clock, log, {}, carrierPush),
      new HousekeepingTask(repos, clock),
      deliveryLearning,
    ],
    {
      leaseMs: config.jobLeaseMs,
    },
  );
  return {
    config,
    clock,
    database,
    secrets,
    adminToken: admin.token,
    adminTokenFile: admin.file,
    carriers,
    carrierKit,
    auth,
    accounts,
    carrierConfigs,
    repos,
    shipments,
    shipmentReader,
    manualEvents,
    tracking,
    returns,
    returnPolicies,
    files,
    labels,
    documents,
    proofOfDelivery,
    pudo,
    bookings,
    bookingCancellations,
    carrierWaits,
    returnsPortal,
    labelJob,
    webhookEndpoints,
    carrierPush,
    notificationSettings,
    notifications,
    smsHooks,
    deliveryLearner,
    deliveryLearning,
    worker,
    log,
    close: async () => {
      await worker.stop();
      await webhookJob.close();
      mailer?.close();
      await labels.close();
      await logoChecks.close();
      await carrierKit.http.close();
      await database.close();
    },
  };
}
