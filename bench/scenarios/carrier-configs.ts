import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedAccount } from '../fixtures.js';
import { type ChildServer, childEnv, compare, freePort, measure, type Scenario, startChild } from '../harness.js';
import { profileArgs } from './shipment-details.js';

const route = '/v5/carrier-configs/';

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
      const { token } = await seedAccount(service.url, adminToken);
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

      const baselineResult = await measure('bare Fastify route', `${baseline.url}${route}`, settings, {}, undefined, baseline.pid);
      const targetResult = await measure('waybill', `${service.url}${route}`, settings, headers, undefined, service.pid);
      return compare(this, targetResult, baselineResult, 0.6);
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};
