import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { SandboxCarrier } from '../src/carriers/sandbox/sandbox.carrier.js';
import { loadConfig } from '../src/config.js';
import { type AppContext, createContext } from '../src/context.js';
import type { Caller } from '../src/domain/auth.service.js';
import type { ShipmentWrite } from '../src/schemas/shipment-input.schemas.js';
import { CARRIER_REFERENCE, json, shipmentBody } from './fixtures.js';
import { dedupeKey, deliveredStories } from './scenarios/shipment-details.js';

export interface Merchant {
  accountUuid: string;
  clientId: string;
  clientSecret: string;
  /** A prefix for shipment_ids this merchant has not used yet. */
  runId: string;
  shipmentUuids: string[];
}

/**
 * One merchant written in process through the services: an account (features returns and booking) with
 * credentials and the sandbox carrier configuration `CARRIER_REFERENCE`, and the caller its requests would be.
 */
export async function addMerchant(
  context: AppContext,
  name: string,
): Promise<{ caller: Caller; creds: { client_id: string; client_secret: string } }> {
  const account = await context.accounts.create({ name, features: ['returns', 'booking'] });
  const row = await context.accounts.require(account.account_uuid);
  const creds = await context.accounts.createCredentials(account.account_uuid);
  await context.carrierConfigs.add(row.id, { carrier_reference: CARRIER_REFERENCE, carrier_id: 'sandbx', booking: ['outbound'] });
  const caller: Caller = {
    accountId: row.id,
    accountUuid: account.account_uuid,
    clientId: creds.client_id,
    features: new Set(),
    strictFields: false,
  };
  return { caller, creds };
}

/**
 * Merchants as a deployment holds them, written in process through the services before the measured
 * service starts: accounts with credentials and a sandbox carrier configuration, shipments made by
 * ShipmentsService.create (the create endpoint's code), and `eventsPerShipment` tracking events each (a
 * delivered sandbox story, keyed for each shipment's own number) through the events repository.
 */
export async function seedMerchants(options: {
  dataDir: string;
  databaseUrl?: string;
  accounts: number;
  shipmentsPerAccount: number;
  eventsPerShipment: number;
}): Promise<Merchant[]> {
  const context = await createContext(
    loadConfig({
      WAYBILL_DATA_DIR: options.dataDir,
      LOG_LEVEL: 'silent',
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    }),
    { logger: pino({ level: 'silent' }) },
  );
  try {
    const now = new Date();
    const stories = await deliveredStories(options.eventsPerShipment, new Date(now.getTime() - 20 * 86_400_000), now);
    const merchants: Merchant[] = [];
    for (let a = 0; a < options.accounts; a++) {
      const { caller, creds } = await addMerchant(context, `merchant ${a}`);
      const runId = randomBytes(3).toString('hex');
      const merchant: Merchant = {
        accountUuid: caller.accountUuid,
        clientId: creds.client_id,
        clientSecret: creds.client_secret,
        runId,
        shipmentUuids: [],
      };
      const createdAt = now.toISOString();
      for (let i = 0; i < options.shipmentsPerAccount; i++) {
        const body = shipmentBody(`seed${runId}`, i, 'WB4') as ShipmentWrite & { shipment_id: string };
        const created = await context.shipments.create(caller, body);
        merchant.shipmentUuids.push(created.shipment_uuid);
        const shipment = await context.repos.shipments.findByUuid(caller.accountId, created.shipment_uuid);
        if (!shipment?.tracking_number) throw new Error('seeded shipment not found');
        const story = stories[i % stories.length];
        const trackingNumber = shipment.tracking_number;
        await context.repos.events.insertNew(
          story.rows.map((event, e) => ({
            ...event,
            shipment_row_id: shipment.id,
            dedupe_key: dedupeKey(SandboxCarrier.id, trackingNumber, story.keyParts[e]),
            created_at: createdAt,
          })),
        );
      }
      merchants.push(merchant);
    }
    return merchants;
  } finally {
    await context.close();
  }
}

/** A bearer token for a merchant from the service's token endpoint. */
export async function tokenFor(url: string, merchant: Pick<Merchant, 'clientId' | 'clientSecret'>): Promise<string> {
  const token = await json<{ access_token: string }>(
    await fetch(`${url}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${merchant.clientId}:${merchant.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
    200,
    'token',
  );
  return token.access_token;
}
