import { expect } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../../helpers/app.js';
import type { CarrierServer } from './carrier-server.js';

export interface EndToEndOptions {
  /** The account's configurations of the carrier: their settings by carrier_reference, the first being the one `create` uses. */
  configurations: Record<string, Record<string, unknown>>;
  /** The base URL names the local server `localhost`, as an operator would write it, instead of its 127.0.0.1 address. */
  byHostName?: boolean;
  /** More of the app's environment. */
  env?: Record<string, string>;
}

/** A carrier's local server, the app pointed at it, and an account with configurations of that carrier. */
export interface EndToEnd<Server extends CarrierServer> {
  server: Server;
  t: TestApp;
  acct: TestAccount;
  /** Calls the API as the account. */
  api: ReturnType<TestApp['as']>;
  /** A shipment's v5.2 details (the answer's `data`). */
  details(shipmentId: string): Promise<any>;
  /** Creates a shipment with a tracking number on a configuration (the first unless named), expects 200 and returns the shipment id. */
  create(shipmentId: string, trackingNumber: string, carrierReference?: string): Promise<string>;
  /** Runs one round of the worker; resolves to how much it found to do. */
  poll(): Promise<number>;
  /** Closes the app, then the server. */
  close(): Promise<void>;
}

/** Starts the server, the app with `WAYBILL_CARRIER_<ID>_BASE_URL` pointed at it, and the account; for a suite's beforeAll. */
export async function startEndToEnd<Server extends CarrierServer>(
  carrierId: string,
  startServer: () => Promise<Server>,
  options: EndToEndOptions,
): Promise<EndToEnd<Server>> {
  const server = await startServer();
  let t: TestApp | undefined;
  try {
    const baseUrl = options.byHostName ? server.url.replace('127.0.0.1', 'localhost') : server.url;
    t = await createTestApp({ env: { [`WAYBILL_CARRIER_${carrierId.toUpperCase()}_BASE_URL`]: baseUrl, ...options.env } });
    const references = Object.keys(options.configurations);
    const acct = await t.account({
      carriers: references.map((carrier_reference) => ({
        carrier_reference,
        carrier_id: carrierId,
        settings: options.configurations[carrier_reference],
      })),
    });
    return endToEnd(server, t, acct, references[0]);
  } catch (error) {
    await t?.close();
    await server.close();
    throw error;
  }
}

function endToEnd<Server extends CarrierServer>(server: Server, t: TestApp, acct: TestAccount, firstReference: string): EndToEnd<Server> {
  const api = t.as(acct);
  return {
    server,
    t,
    acct,
    api,
    details: async (shipmentId) => (await api('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId })).json().data,
    async create(shipmentId, trackingNumber, carrierReference = firstReference) {
      const res = await api('POST', '/v5/shipment/', {
        shipment_id: shipmentId,
        tracking_number: trackingNumber,
        carrier_reference: carrierReference,
      });
      expect(res.statusCode, res.body).toBe(200);
      return shipmentId;
    },
    poll: () => t.context.worker.runOnce(),
    async close() {
      await t.close();
      await server.close();
    },
  };
}
