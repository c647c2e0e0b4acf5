import type { Kysely } from 'kysely';
import type { DialectName } from '../connection.js';
import { withDirectStatements } from '../prepared-query.js';
import type { Database } from '../schema.js';
import { AccountsRepository } from './accounts.repository.js';
import { BookingsRepository } from './bookings.repository.js';
import { CarrierConfigsRepository } from './carrier-configs.repository.js';
import { CarrierPudoCacheRepository } from './carrier-pudo-cache.repository.js';
import { CarrierPushRepository } from './carrier-push.repository.js';
import { ConsoleSessionsRepository } from './console-sessions.repository.js';
import { CredentialsRepository } from './credentials.repository.js';
import { DeliveryAnalyticsRepository } from './delivery-analytics.repository.js';
import { DeliveryExceptionsRepository } from './delivery-exceptions.repository.js';
import { DeliveryFactsRepository } from './delivery-facts.repository.js';
import { DeliveryLearningRepository } from './delivery-learning.repository.js';
import { DocumentFilesRepository } from './document-files.repository.js';
import { DocumentsRepository } from './documents.repository.js';
import { JobsRepository } from './jobs.repository.js';
import { NotificationsRepository } from './notifications.repository.js';
import { OrdersRepository } from './orders.repository.js';
import { PollLeasesRepository } from './poll-leases.repository.js';
import { PudoLocationsRepository } from './pudo-locations.repository.js';
import { RequestReplaysRepository } from './request-replays.repository.js';
import { ReturnPoliciesRepository } from './return-policies.repository.js';
import { ReturnsRepository } from './returns.repository.js';
import { ReturnsPortalRepository } from './returns-portal.repository.js';
import { ShipmentsRepository } from './shipments.repository.js';
import { TrackingEventsRepository } from './tracking-events.repository.js';
import { TrackingStopsRepository } from './tracking-stops.repository.js';
import { TransitHistogramsRepository } from './transit-histograms.repository.js';
import { WebhooksRepository } from './webhooks.repository.js';

/** Every repository bound to one executor: the database, or one transaction. */
export class Repositories {
  readonly accounts: AccountsRepository;
  readonly credentials: CredentialsRepository;
  readonly carrierConfigs: CarrierConfigsRepository;
  readonly orders: OrdersRepository;
  readonly shipments: ShipmentsRepository;
  readonly pollLeases: PollLeasesRepository;
  readonly trackingStops: TrackingStopsRepository;
  readonly events: TrackingEventsRepository;
  readonly jobs: JobsRepository;
  readonly returns: ReturnsRepository;
  readonly returnPolicies: ReturnPoliciesRepository;
  readonly returnsPortal: ReturnsPortalRepository;
  readonly replays: RequestReplaysRepository;
  readonly consoleSessions: ConsoleSessionsRepository;
  readonly bookings: BookingsRepository;
  readonly documents: DocumentsRepository;
  readonly documentFiles: DocumentFilesRepository;
  readonly pudo: PudoLocationsRepository;
  readonly pudoCache: CarrierPudoCacheRepository;
  readonly webhooks: WebhooksRepository;
  readonly carrierPush: CarrierPushRepository;
  readonly notifications: NotificationsRepository;
  readonly deliveryAnalytics: DeliveryAnalyticsRepository;
  readonly deliveryExceptions: DeliveryExceptionsRepository;
  readonly transitHistograms: TransitHistogramsRepository;
  readonly deliveryFacts: DeliveryFactsRepository;
  readonly deliveryLearning: DeliveryLearningRepository;

  constructor(
    readonly db: Kysely<Database>,
    readonly dialect: DialectName,
  ) {
    this.accounts = new AccountsRepository(db);
    this.credentials = new CredentialsRepository(db);
    this.carrierConfigs = new CarrierConfigsRepository(db);
    this.orders = new OrdersRepository(db, dialect);
    this.shipments = new ShipmentsRepository(db, dialect);
    this.pollLeases = new PollLeasesRepository(db);
    this.trackingStops = new TrackingStopsRepository(db);
    this.events = new TrackingEventsRepository(db, dialect);
    this.jobs = new JobsRepository(db, dialect);
    this.returns = new ReturnsRepository(db, dialect);
    this.returnPolicies = new ReturnPoliciesRepository(db);
    this.returnsPortal = new ReturnsPortalRepository(db);
    this.replays = new RequestReplaysRepository(db);
    this.consoleSessions = new ConsoleSessionsRepository(db);
    this.bookings = new BookingsRepository(db);
    this.documents = new DocumentsRepository(db);
    this.documentFiles = new DocumentFilesRepository(db);
    this.pudo = new PudoLocationsRepository(db);
    this.pudoCache = new CarrierPudoCacheRepository(db);
    this.webhooks = new WebhooksRepository(db);
    this.carrierPush = new CarrierPushRepository(db);
    this.notifications = new NotificationsRepository(db, dialect);
    this.deliveryAnalytics = new DeliveryAnalyticsRepository(db);
    this.deliveryExceptions = new DeliveryExceptionsRepository(db);
    this.transitHistograms = new TransitHistogramsRepository(db);
    this.deliveryFacts = new DeliveryFactsRepository(db);
    this.deliveryLearning = new DeliveryLearningRepository(db, dialect);
  }

  /** Runs `work` in one transaction with repositories bound to it. */
  transaction<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction().execute((trx) => withDirectStatements(this.db, trx, () => work(new Repositories(trx, this.dialect))));
  }
}
