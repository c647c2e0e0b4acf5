import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newAdminToken, seedAccount, startBaseline, startService } from '../fixtures.js';
import { type ChildServer, compare, measure, type Scenario } from '../harness.js';
import { profileArgs } from './shipment-details.js';

const route = '/auth/oauth/token/';

/**
 * POST /auth/oauth/token/ (client credentials in the Basic header, form body) on the built service, SQLite,
 * the rate limit high enough never to refuse; against a bare Fastify POST route that parses the same form
 * body and answers a captured token response. Every request issues a new token: the credential is read from
 * the database (never from the cache, so a revoked secret stops at once), its secret hashed and compared,
 * and the token signed.
 */
export const token: Scenario = {
  name: 'token',
  description: `POST ${route} (client credentials) vs a bare Fastify POST route with a captured token body`,
  async run(settings) {
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-token-'));
    const adminToken = newAdminToken();
    const servers: ChildServer[] = [];
    try {
      const service = await startService({ dataDir: path.join(workDir, 'data'), adminToken, command: 'serve', nodeArgs: profileArgs() });
      servers.push(service);
      const { clientId, clientSecret } = await seedAccount(service.url, adminToken);
      const headers = {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      };
      const requests = [{ method: 'POST', path: route, headers, body: 'grant_type=client_credentials' }];
      const sample = await fetch(`${service.url}${route}`, { method: 'POST', headers, body: 'grant_type=client_credentials' });
      const body = await sample.text();
      if (sample.status !== 200) throw new Error(`POST ${route}: HTTP ${sample.status} ${body}`);
      const bodyFile = path.join(workDir, 'body.json');
      fs.writeFileSync(bodyFile, body);
      const baseline = await startBaseline(route, bodyFile, 'POST');
      servers.push(baseline);

      const baselineResult = await measure('bare Fastify POST route', `${baseline.url}${route}`, settings, headers, requests, baseline.pid);
      const targetResult = await measure('waybill token endpoint', `${service.url}${route}`, settings, headers, requests, service.pid);
      return { ...compare(this, targetResult, baselineResult, 0), goalText: 'no goal set; throughput reported' };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};
