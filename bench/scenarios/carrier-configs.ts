import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ChildServer, childEnv, compare, freePort, measure, type Scenario, startChild } from '../harness.js';
import { profileArgs } from './shipment-details.js';

const route = '/v5/carrier-configs/';

async function json<T>(res: Response, expected: number, what: string): Promise<T> {
  if (res.status !== expected) throw new Error(`${what}: HTTP ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** An account with credentials and one carrier configuration, made through the admin API; returns a bearer token. */
async function seed(url: string, adminToken: string): Promise<string> {
  const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
  const account = await json<{ account_uuid: string }>(
    await fetch(`${url}/admin/v1/accounts/`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'bench' }) }),
    201,
    'create account',
  );
  const accountPath = `${url}/admin/v1/accounts/${account.account_uuid}`;
  const creds = await json<{ client_id: string; client_secret: string }>(
    await fetch(`${accountPath}/credentials/`, { method: 'POST', headers: { authorization: admin.authorization } }),
    201,
    'create credentials',
  );
  await json(
    await fetch(`${accountPath}/carrier-configs/`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ carrier_reference: 'bench-sandbox', carrier_id: 'sandbx', booking: ['outbound'] }),
    }),
    201,
    'create carrier config',
  );
  const token = await json<{ access_token: string }>(
    await fetch(`${url}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    }),
    200,
    'token',
  );
  return token.access_token;
}

/**
 * GET /v5/carrier-configs/ on the built service (embedded SQLite, token check, rate limit, metrics,
 * response schema) against a bare Fastify route returning the same body.
 */
export const carrierConfigs: Scenario = {
  name: 'carrier-configs',
  description: `GET ${route} (bearer token, one carrier configuration, SQLite) vs a bare Fastify route with the same body`,
  async run(settings) {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-'));
    const servers: ChildServer[] = [];
    try {
      const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;
      const servicePort = await freePort();
      const service = await startChild({
        label: 'waybill',
        args: [...profileArgs(), 'dist/main.js', 'start'],
        env: childEnv({
          NODE_ENV: 'production',
          PORT: String(servicePort),
          HOST: '127.0.0.1',
          WAYBILL_DATA_DIR: path.join(workDir, 'data'),
          WAYBILL_ADMIN_TOKEN: adminToken,
          WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
          WAYBILL_BANNER: 'false',
          LOG_LEVEL: 'warn',
        }),
        port: servicePort,
        readyPath: '/healthz',
      });
      servers.push(service);
      const token = await seed(service.url, adminToken);
      const headers = { authorization: `Bearer ${token}` };

      const sample = await fetch(`${service.url}${route}`, { headers });
      const body = await sample.text();
      if (sample.status !== 200) throw new Error(`GET ${route}: HTTP ${sample.status} ${body}`);
      const bodyFile = path.join(workDir, 'body.json');
      fs.writeFileSync(bodyFile, body);

      const baselinePort = await freePort();
      const baseline = await startChild({
        label: 'baseline',
        args: ['--import', 'tsx', 'bench/baseline-server.ts'],
        env: childEnv({ NODE_ENV: 'production', PORT: String(baselinePort), BASELINE_ROUTE: route, BASELINE_BODY_FILE: bodyFile }),
        port: baselinePort,
        readyPath: route,
      });
      servers.push(baseline);
      const baselineBody = await (await fetch(`${baseline.url}${route}`)).text();
      if (baselineBody !== body) throw new Error('the baseline does not answer the same body as the service');

      const baselineResult = await measure('bare Fastify route', `${baseline.url}${route}`, settings);
      const targetResult = await measure('waybill', `${service.url}${route}`, settings, headers);
      return compare(this, targetResult, baselineResult, 0.6);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};
