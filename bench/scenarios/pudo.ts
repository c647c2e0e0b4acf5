import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { SANDBOX_CITIES } from '../../src/carriers/sandbox/pudo-cities.js';
import { generatePudoDataset } from '../../src/carriers/sandbox/pudo-dataset.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import type { Caller } from '../../src/domain/auth.service.js';
import { searchPudoLocations } from '../../src/domain/pudo/pudo-search.js';
import { envInteger, latencyMeasurement } from '../fixtures.js';
import type { Scenario, ScenarioResult } from '../harness.js';

const GOAL_P99_MS = 5;

/**
 * PUDO_LOCATIONS sandbox locations (default 10,000, the data set scaled) in the indexed table of a temporary
 * SQLite database; PUDO_SEARCHES searches (default 3,000) through PudoService.search around random points of
 * the six cities, 5 km radius, 20 results. Baseline in the same run: the same searches as a full scan of the
 * records in memory (no index), to show what the bounding-box prefilter saves.
 */
export const pudoSearch: Scenario = {
  name: 'pudo',
  description: 'PUDO search on 10,000 locations through the indexed table (SQLite) vs a full in-memory scan',
  async run(): Promise<ScenarioResult> {
    const total = envInteger('PUDO_LOCATIONS', 10_000);
    const searches = envInteger('PUDO_SEARCHES', 3_000);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-bench-pudo-'));
    const context = await createContext(loadConfig({ WAYBILL_DATA_DIR: dataDir, LOG_LEVEL: 'silent' }), {
      logger: pino({ level: 'silent' }),
    });
    try {
      const base = generatePudoDataset().length;
      const records = generatePudoDataset({ scale: total / base, seed: 'bench' });
      await context.repos.transaction((repos) => repos.pudo.insertRecords('sandbx', records));
      const account = await context.accounts.create({ name: 'bench' });
      const row = await context.accounts.require(account.account_uuid);
      await context.carrierConfigs.add(row.id, { carrier_reference: 'sb', carrier_id: 'sandbx' });
      const caller: Caller = {
        accountId: row.id,
        accountUuid: account.account_uuid,
        clientId: 'bench',
        features: new Set(),
        strictFields: false,
      };
      const points = Array.from({ length: searches }, (_, i) => {
        const city = SANDBOX_CITIES[i % SANDBOX_CITIES.length];
        return { lat: city.lat + (Math.random() - 0.5) * 0.1, lng: city.lng + (Math.random() - 0.5) * 0.15 };
      });
      await context.pudo.search(caller, { carrier_reference: 'sb', ...points[0] }, context.carrierWaits.begin());

      const indexed: number[] = [];
      let started = performance.now();
      for (const point of points) {
        const t0 = performance.now();
        await context.pudo.search(
          caller,
          { carrier_reference: 'sb', lat: point.lat, lng: point.lng, radius_meters: 5_000, limit: 20 },
          context.carrierWaits.begin(),
        );
        indexed.push(performance.now() - t0);
      }
      const target = latencyMeasurement(
        `PudoService.search, ${records.length.toLocaleString('en')} locations (searches/s)`,
        indexed,
        indexed.length,
        (performance.now() - started) / 1000,
        3,
      );

      const scanned: number[] = [];
      started = performance.now();
      for (const point of points) {
        const t0 = performance.now();
        searchPudoLocations(records, { lat: point.lat, lng: point.lng, radiusMeters: 5_000, limit: 20 });
        scanned.push(performance.now() - t0);
      }
      const baseline = latencyMeasurement(
        'full scan of the records in memory',
        scanned,
        scanned.length,
        (performance.now() - started) / 1000,
        3,
      );
      return {
        name: 'pudo',
        description: pudoSearch.description,
        target,
        baseline,
        ratio: target.requestsPerSecond / baseline.requestsPerSecond,
        goal: 0,
        goalText: `p99 ≤ ${GOAL_P99_MS} ms`,
        goalMet: target.latencyP99Ms <= GOAL_P99_MS,
        notes: [
          `pudo: ${records.length.toLocaleString('en')} locations, ${searches.toLocaleString('en')} searches, 5 km radius, 20 results`,
        ],
      };
    } finally {
      await context.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};
