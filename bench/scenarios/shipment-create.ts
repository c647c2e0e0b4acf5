import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newAdminToken, seedAccount, shipmentBody, startBaseline, startService } from '../fixtures.js';
import { type ChildServer, compare, type LoadRequest, measure, type Scenario } from '../harness.js';
import { profileArgs } from './shipment-details.js';

const route = '/v5/shipment/';

/**
 * POST /v5/shipment/ on the built service: a realistic body (two addresses, three line items, an order, tags)
 * with a new shipment_id, order_id and tracking number on every request, against a bare Fastify POST route
 * that parses the same bodies and answers one captured create response.
 *
 * The service runs as `serve` (HTTP API only; CREATE_COMMAND=start adds the worker): the carrier polls the
 * new shipments cause are measured by the tracking scenarios.
 */
export const shipmentCreate: Scenario = {
  name: 'shipment-create',
  description: `POST ${route} (new shipment_id per request, addresses, line items, order, SQLite) vs a bare Fastify POST route`,
  async run(settings) {
    const command = process.env.CREATE_COMMAND === 'start' ? 'start' : 'serve';
    const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-create-'));
    const servers: ChildServer[] = [];
    try {
      const adminToken = newAdminToken();
      const service = await startService({ dataDir: path.join(workDir, 'data'), adminToken, command, nodeArgs: profileArgs() });
      servers.push(service);
      const { token } = await seedAccount(service.url, adminToken);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

      const runId = randomBytes(3).toString('hex');
      let sequence = 0;
      const nextBody = () => JSON.stringify(shipmentBody(runId, sequence++));
      const sample = await fetch(`${service.url}${route}`, { method: 'POST', headers, body: nextBody() });
      const body = await sample.text();
      if (sample.status !== 200) throw new Error(`POST ${route}: HTTP ${sample.status} ${body}`);
      const bodyFile = path.join(workDir, 'body.json');
      fs.writeFileSync(bodyFile, body);
      const baseline = await startBaseline(route, bodyFile, 'POST');
      servers.push(baseline);

      const requests: LoadRequest[] = [
        { method: 'POST', path: route, headers, setupRequest: (request) => ({ ...request, body: nextBody() }) },
      ];
      const baselineResult = await measure('bare Fastify POST route', `${baseline.url}${route}`, settings, headers, requests);
      const before = sequence;
      const targetResult = await measure('waybill', `${service.url}${route}`, settings, headers, requests);

      const bytes = Buffer.byteLength(nextBody());
      return {
        ...compare(this, targetResult, baselineResult, 0),
        goalText: 'no goal set',
        notes: [
          `${(sequence - before).toLocaleString('en-US')} create bodies sent to the service (warm-up included), ${bytes.toLocaleString('en-US')} bytes each; service command \`${command}\``,
        ],
      };
    } finally {
      await Promise.all(servers.map((server) => server.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    }
  },
};
