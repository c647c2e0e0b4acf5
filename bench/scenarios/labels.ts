import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import type { LabelFormat, LabelInput } from '../../src/documents/label.types.js';
import { LabelRenderPool } from '../../src/documents/label-pool.js';
import { renderLabel } from '../../src/documents/label-renderer.js';
import type { LoadSettings, Measurement, Scenario, ScenarioResult } from '../harness.js';

export const name = 'labels';
export const description = 'PDF shipping labels rendered on the worker-thread pool (one thread per core) vs in the calling thread';

/** Absolute goal for the pool on this kind of machine (2 cores). */
export const GOAL_LABELS_PER_SECOND = 60;

/** The label of the `sequence`-th parcel: a full sender and recipient, varying weight and numbers. */
export function sampleLabel(sequence: number): LabelInput {
  return {
    sender: {
      company: 'Acme Versand GmbH',
      street_name: 'Friedrichstraße',
      house_number: '123',
      postal_code: '10117',
      city: 'Berlin',
      country_code: 'DE',
    },
    recipient: {
      first_name: 'Zoë',
      last_name: 'van der Berg',
      line1: 'Keizersgracht 452',
      postal_code: '1016 GD',
      city: 'Amsterdam',
      country_code: 'NL',
      phone: '+31201234567',
    },
    carrier_name: 'Waybill Sandbox',
    service_name: 'Parcel Standard',
    weight_grams: 1200 + (sequence % 500),
    tracking_number: `SBX${String(100_000_000 + sequence)}DE`,
    shipment_id: `ORDER-${sequence}`,
    shipment_reference: `REF-${sequence % 1000}`,
    pudo_location_name: sequence % 2 ? 'Kiosk Prinsengracht' : null,
    date: '2026-01-15',
  };
}

function percentile(sorted: number[], share: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] * 10) / 10;
}

/**
 * Renders labels for `seconds` with `inFlight` renders outstanding at any time through `render`, and
 * returns the throughput and latency of the renders that finished.
 */
async function drive(
  label: string,
  render: (input: LabelInput) => Promise<unknown>,
  seconds: number,
  inFlight: number,
): Promise<Measurement> {
  const latencies: number[] = [];
  const started = performance.now();
  const deadline = started + seconds * 1000;
  let sequence = 0;
  const lane = async () => {
    while (performance.now() < deadline) {
      const begin = performance.now();
      await render(sampleLabel(sequence++));
      latencies.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: inFlight }, lane));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    label,
    url: '',
    requestsPerSecond: latencies.length / elapsed,
    latencyP50Ms: percentile(latencies, 0.5),
    latencyP99Ms: percentile(latencies, 0.99),
    totalRequests: latencies.length,
  };
}

export interface LabelFigures {
  format: LabelFormat;
  threads: number;
  pool: Measurement;
  inThread: Measurement;
}

/** Labels per second of one format on the pool (sized to the cores) and, as the baseline, in the calling thread. */
export async function measureLabels(
  format: LabelFormat,
  settings: Pick<LoadSettings, 'durationSeconds' | 'warmupSeconds'>,
): Promise<LabelFigures> {
  const pool = new LabelRenderPool();
  try {
    const viaPool = (label: LabelInput) => pool.render(label, format);
    const inThread = (label: LabelInput) => renderLabel(label, format);
    const inFlight = pool.threads * 2;
    if (settings.warmupSeconds > 0) {
      await drive('warm-up', viaPool, settings.warmupSeconds, inFlight);
      await drive('warm-up', inThread, settings.warmupSeconds, 1);
    }
    return {
      format,
      threads: pool.threads,
      pool: await drive(`pool, ${pool.threads} threads`, viaPool, settings.durationSeconds, inFlight),
      inThread: await drive('calling thread', inThread, settings.durationSeconds, 1),
    };
  } finally {
    await pool.close();
  }
}

/** The scenario in the shape bench/run.ts expects: labels/s appear in its req/s column. */
export async function run(settings: LoadSettings = { durationSeconds: 5, warmupSeconds: 1, connections: 0 }): Promise<ScenarioResult> {
  const figures = await measureLabels('pdf', settings);
  return {
    name,
    description,
    target: figures.pool,
    baseline: figures.inThread,
    ratio: figures.pool.requestsPerSecond / figures.inThread.requestsPerSecond,
    // one thread per core should scale close to the core count
    goal: Math.max(1, 0.8 * Math.min(figures.threads, availableParallelism())),
  };
}

export const labels: Scenario = { name, description, run };

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const seconds = Number(process.env.LABELS_SECONDS ?? 5);
  for (const format of ['pdf', 'zpl', 'png'] as const) {
    const figures = await measureLabels(format, {
      durationSeconds: seconds,
      warmupSeconds: Number(process.env.LABELS_WARMUP_SECONDS ?? 5),
    });
    const { pool, inThread } = figures;
    process.stdout.write(
      `${format}: pool ${pool.requestsPerSecond.toFixed(1)} labels/s (p50 ${pool.latencyP50Ms} ms, p99 ${pool.latencyP99Ms} ms, ${figures.threads} threads)` +
        ` | calling thread ${inThread.requestsPerSecond.toFixed(1)} labels/s (p50 ${inThread.latencyP50Ms} ms)` +
        `${format === 'pdf' ? ` | goal ≥ ${GOAL_LABELS_PER_SECOND}: ${pool.requestsPerSecond >= GOAL_LABELS_PER_SECOND ? 'met' : 'NOT met'}` : ''}\n`,
    );
  }
}
