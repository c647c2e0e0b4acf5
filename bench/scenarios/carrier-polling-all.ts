import { ADDED_CARRIERS, SEVEN_CARRIERS } from '../carriers/index.js';
import type { Scenario, ScenarioResult } from '../harness.js';
import { count, pollCarriers, pollingMeasurement, pollingSettings, reportViolations } from './carrier-polling.js';

/** The added adapters may cost the worker this much more CPU per polled number than the seven alone. */
const GOAL_MORE_CPU = 0.1;

async function run(database: 'sqlite' | 'postgres', warmupSeconds: number): Promise<ScenarioResult> {
  const settings = pollingSettings(database, warmupSeconds);
  const all = [...SEVEN_CARRIERS, ...ADDED_CARRIERS];
  const seven = await pollCarriers(settings, SEVEN_CARRIERS, 'carrier-polling-seven');
  const every = await pollCarriers(settings, all, 'carrier-polling-all');
  const rows = (set: string, n: number) => `poller, ${set} (${n} carriers) over HTTP on ${database} (numbers per CPU-second; ms per round)`;
  const target = pollingMeasurement(rows('the seven and the added adapters', all.length), every);
  const baseline = pollingMeasurement(rows('the seven', SEVEN_CARRIERS.length), seven);
  reportViolations(`${carrierPollingAll.name} (the seven)`, seven);
  reportViolations(carrierPollingAll.name, every);
  const more = every.cpuPerNumber / seven.cpuPerNumber - 1;
  const name = database === 'sqlite' ? carrierPollingAll.name : `${carrierPollingAll.name} (${database})`;
  return {
    name,
    description: carrierPollingAll.description,
    target,
    baseline,
    ratio: target.requestsPerSecond / baseline.requestsPerSecond,
    goal: 0,
    goalText: `≤ ${GOAL_MORE_CPU * 100}% more worker CPU per polled number than the seven, no carrier limit exceeded`,
    goalMet: more <= GOAL_MORE_CPU && seven.violations === 0 && every.violations === 0,
    notes: [
      `${database}: worker CPU per polled number ${every.cpuPerNumber.toFixed(1)} µs with the added adapters (${ADDED_CARRIERS.map((c) => c.id).join(', ')}),` +
        ` ${seven.cpuPerNumber.toFixed(1)} µs for the seven: ${more >= 0 ? '+' : ''}${(more * 100).toFixed(1)}%;` +
        ` carrier limits exceeded: ${count(every.violations)} and ${count(seven.violations)}`,
      ...every.notes.map((line) => `${database}, all: ${line}`),
      ...seven.notes.map((line) => `${database}, seven: ${line}`),
    ],
  };
}

/**
 * carrier-polling with the adapters added since the seven (bench/carriers/index.ts, ADDED_CARRIERS): the same
 * shipments (CARRIER_POLLING_SHIPMENTS and the scenario's other settings) dealt over the seven and the added
 * carriers, against the seven alone polled in the same run just before. Figure: the worker's CPU per polled
 * number of the whole set against the seven's, and the limits every local carrier counted exceeded.
 */
export const carrierPollingAll: Scenario = {
  name: 'carrier-polling-all',
  description:
    'carrier-polling over the seven carriers and the adapters added since, against the seven alone in the same run: worker CPU per polled number, no carrier limit exceeded',
  databases: ['sqlite', 'postgres'],
  run: (settings) => run(settings.database ?? 'sqlite', settings.warmupSeconds),
};
