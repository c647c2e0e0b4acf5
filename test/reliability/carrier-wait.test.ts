import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DhlParcelServer, LOCATIONS_PATH, ORDERS_PATH } from '../carriers/dhlpde/dhl-parcel-server.js';
import { SETTINGS } from '../carriers/dhlpde/dhlpde.fixtures.js';
import { apiClient, type Merchant } from '../scale/api-client.js';
import { freePort, freshPostgresDatabase, startWaybill, stopWaybill, type WaybillProcess, waitHealthy } from '../scale/processes.js';

/**
 * A carrier that never answers, through real sockets: the service as a child process (`waybill start`) books,
 * validates, cancels and searches pick-up points with DHL Parcel DE on a local server that accepts each call and
 * never answers it. Every such request must get an answer in the envelope (a 503 saying what the carrier may
 * have done) before the server's own socket timeout closes the merchant's connection: with the default settings
 * (60 s) and with shortened ones (6 s), and when the process is stopped meanwhile. The merchant's client has no
 * timeout of its own, and reaches the service and the carrier by host name.
 */
const usingPostgres = Boolean(process.env.DATABASE_URL);
const ADMIN_TOKEN = `wbadm_${randomBytes(16).toString('hex')}`;
const CONSUMER = {
  first_name: 'Max',
  last_name: 'Mustermann',
  line1: 'Kurt-Schumacher-Str. 20',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
};
const MERCHANT = {
  company: 'Versand GmbH',
  street_name: 'Sträßchensweg',
  house_number: '10',
  postal_code: '53113',
  city: 'Bonn',
  country_code: 'DE',
};

interface Answer {
  status: number;
  body: string;
  ms: number;
}

/** One request on a connection of its own, with no client timeout: its answer, or the error that ended it. */
function call(base: string, token: string, method: string, pathname: string, body?: unknown): Promise<Answer> {
  const started = Date.now();
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      new URL(pathname, base),
      {
        method,
        agent: false,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: Date.now() - started }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', (error) =>
      reject(new Error(`${method} ${pathname}: no answer after ${Date.now() - started} ms (${error.message})`)),
    );
    request.end(payload);
  });
}

describe('requests that wait on a carrier that never answers', () => {
  let database: Awaited<ReturnType<typeof freshPostgresDatabase>> = null;
  const started: WaybillProcess[] = [];
  const carriers: DhlParcelServer[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    if (usingPostgres) {
      database = await freshPostgresDatabase();
      if (!database) throw new Error('DATABASE_URL is set but a database could not be created from it');
    }
  });

  afterAll(async () => {
    await Promise.all(started.map((proc) => stopWaybill(proc, 'SIGKILL')));
    await Promise.all(carriers.map((carrier) => carrier.close()));
    await database?.drop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** The service on its own data, a local DHL Parcel DE of its own by host name, and a merchant with a DHL configuration. */
  async function service(
    env: Record<string, string>,
  ): Promise<{ proc: WaybillProcess; base: string; merchant: Merchant; carrier: DhlParcelServer }> {
    const carrier = await DhlParcelServer.create();
    carriers.push(carrier);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-carrier-wait-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://localhost:${port}`;
    const proc = startWaybill(['start'], {
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: ADMIN_TOKEN,
      DATABASE_URL: database?.url ?? '',
      REDIS_URL: '',
      PORT: String(port),
      HOST: 'localhost',
      WAYBILL_CARRIER_DHLPDE_BASE_URL: carrier.url.replace('127.0.0.1', 'localhost'),
      ...env,
    });
    started.push(proc);
    await waitHealthy(base, proc, 90_000);
    const merchant = await apiClient(base, ADMIN_TOKEN).merchant({
      features: ['booking'],
      carriers: [{ carrier_reference: 'dhl', carrier_id: 'dhlpde', booking: ['outbound'], settings: { ...SETTINGS } }],
    });
    return { proc, base, merchant, carrier };
  }

  async function shipment(base: string, merchant: Merchant, id: string): Promise<void> {
    const res = await call(base, merchant.token, 'POST', '/v5/shipment/', {
      shipment_id: id,
      sender_address: MERCHANT,
      recipient_address: CONSUMER,
      weight: { amount: 1200, unit: 'g' },
      shipping_service: 'V01PAK',
    });
    expect(res.status, res.body).toBe(200);
  }

  /** The carrier accepts the next calls to these paths and never answers them. */
  function hold(carrier: DhlParcelServer, ...paths: Array<string | RegExp>): void {
    for (const held of paths) for (let i = 0; i < 10; i++) carrier.once(held, { hang: true });
  }

  /**
   * Books one shipment (the carrier answers), then holds DHL and sends the four kinds of request that wait on it.
   * Each must be answered in the envelope with a 503, within `withinMs`.
   */
  async function waitsAreAnswered(env: Record<string, string>, withinMs: number, prefix: string): Promise<Answer[]> {
    const { base, merchant, carrier } = await service(env);
    await shipment(base, merchant, `${prefix}-booked`);
    const booked = await call(base, merchant.token, 'POST', '/v5/booking/', { shipment_id: `${prefix}-booked`, carrier_reference: 'dhl' });
    expect([200, 299], booked.body).toContain(booked.status);
    await shipment(base, merchant, `${prefix}-held`);

    hold(carrier, ORDERS_PATH, LOCATIONS_PATH);
    const answers = await Promise.all([
      call(base, merchant.token, 'POST', '/v5/booking/', { shipment_id: `${prefix}-held`, carrier_reference: 'dhl' }),
      call(base, merchant.token, 'POST', '/v5/booking/validate/', { shipment_id: `${prefix}-held`, carrier_reference: 'dhl' }),
      call(base, merchant.token, 'POST', '/v5/booking/cancel/', { shipment_id: `${prefix}-booked` }),
      call(base, merchant.token, 'GET', '/v5/pudo-locations/?carrier_reference=dhl&lat=50.7374&lng=7.0982'),
    ]);
    for (const answer of answers) {
      expect(answer.status, answer.body).toBe(503);
      expect(JSON.parse(answer.body)).toMatchObject({ api_response: expect.stringMatching(/^\d+$/), message: expect.any(String) });
      expect(answer.ms, answer.body).toBeLessThan(withinMs);
    }
    // The booking's answer says the carrier may have booked it, and the shipment stays reserved.
    expect(JSON.parse(answers[0].body).message).toMatch(/may have booked/);
    const again = await call(base, merchant.token, 'POST', '/v5/booking/', { shipment_id: `${prefix}-held`, carrier_reference: 'dhl' });
    expect(again.status, again.body).toBe(400);
    return answers;
  }

  it('answers each with a 503 before the default 60 s socket timeout', async () => {
    const answers = await waitsAreAnswered({}, 57_000, 'default');
    // The booking waited on DHL as long as its budget allowed: 60 s less 5 s to answer and 15 s to ask again.
    expect(answers[0].ms).toBeGreaterThanOrEqual(39_000);
  }, 120_000);

  it('answers each with a 503 before a socket timeout shortened to 6 s', async () => {
    const answers = await waitsAreAnswered({ WAYBILL_CONNECTION_TIMEOUT_SECONDS: '6' }, 5_800, 'short');
    expect(answers[0].ms).toBeGreaterThanOrEqual(3_000);
  }, 60_000);

  it('answers a booking waiting on the carrier with a 503 before a SIGTERM closes its connection', async () => {
    const { proc, base, merchant, carrier } = await service({ WAYBILL_SHUTDOWN_TIMEOUT_SECONDS: '4' });
    await shipment(base, merchant, 'stopping-held');
    hold(carrier, ORDERS_PATH);
    const booking = call(base, merchant.token, 'POST', '/v5/booking/', { shipment_id: 'stopping-held', carrier_reference: 'dhl' });
    await new Promise((resolve) => setTimeout(resolve, 500));
    proc.child.kill('SIGTERM');
    const answer = await booking;
    expect(answer.status, answer.body).toBe(503);
    expect(JSON.parse(answer.body).message).toMatch(/may have booked/);
    expect(answer.ms).toBeLessThan(4_500);
    expect(await proc.exited).toBe(0);
  }, 60_000);

  it('refuses at start-up a carrier timeout longer than a booking may wait, naming the socket timeout that fits it', async () => {
    const proc = startWaybill(['migrate'], {
      WAYBILL_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-carrier-wait-')),
      DATABASE_URL: '',
      WAYBILL_CONNECTION_TIMEOUT_SECONDS: '30',
      WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '60',
    });
    started.push(proc);
    expect(await proc.exited).not.toBe(0);
    expect(proc.output.join('\n')).toMatch(
      /WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS \(60 s\).*WAYBILL_CONNECTION_TIMEOUT_SECONDS to at least 80/,
    );
  }, 60_000);
});
