import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type LoadSettings, repoRoot, type Scenario, type ScenarioResult } from './harness.js';
import { carrierConfigs } from './scenarios/carrier-configs.js';
import { carrierPolling } from './scenarios/carrier-polling.js';
import { carrierPollingAll } from './scenarios/carrier-polling-all.js';
import { deliveryAnalytics } from './scenarios/delivery-analytics.js';
import { deliveryLearning } from './scenarios/delivery-learning.js';
import { growth } from './scenarios/growth.js';
import { shipmentImport } from './scenarios/import.js';
import { labels } from './scenarios/labels.js';
import { mixed } from './scenarios/mixed.js';
import { notificationDelivery } from './scenarios/notifications.js';
import { predictions } from './scenarios/predictions.js';
import { pudoSearch } from './scenarios/pudo.js';
import { shipmentCreate } from './scenarios/shipment-create.js';
import { shipmentDetails } from './scenarios/shipment-details.js';
import { token } from './scenarios/token.js';
import { trackingClaim, trackingStore } from './scenarios/tracking.js';
import { webhookDelivery } from './scenarios/webhooks.js';

/** Every scenario, in the order a full run goes through them. */
const scenarios: Scenario[] = [
  carrierConfigs,
  shipmentDetails,
  shipmentCreate,
  trackingStore,
  trackingClaim,
  carrierPolling,
  carrierPollingAll,
  webhookDelivery,
  notificationDelivery,
  shipmentImport,
  labels,
  pudoSearch,
  deliveryAnalytics,
  deliveryLearning,
  predictions,
  token,
  mixed,
  growth,
];

const usage = `usage: npm run bench -- [--duration s] [--warmup s] [--connections n] [--database sqlite,postgres] [scenario ...]
scenarios: ${scenarios.map((s) => s.name).join(', ')} (default: all)
--database: where scenarios that can run on either keep their data (mixed, carrier-polling, carrier-polling-all); PostgreSQL gets a fresh database on
the server of BENCH_DATABASE_URL or DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres)`;

type DatabaseName = NonNullable<LoadSettings['database']>;

function databasesFrom(raw: string): DatabaseName[] {
  const names = raw.split(',').map((name) => name.trim());
  for (const name of names)
    if (name !== 'sqlite' && name !== 'postgres') throw new Error(`--database takes sqlite and/or postgres, got "${name}"\n${usage}`);
  return names as DatabaseName[];
}

function positiveInteger(name: string, raw: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`--${name} must be a whole number, got "${raw}"\n${usage}`);
  return value;
}

function selectScenarios(names: string[]): Scenario[] {
  if (names.length === 0) return scenarios;
  return names.map((name) => {
    const scenario = scenarios.find((s) => s.name === name);
    if (!scenario) throw new Error(`unknown scenario "${name}"\n${usage}`);
    return scenario;
  });
}

function commit(): string {
  try {
    const git = (...args: string[]) =>
      execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const head = git('rev-parse', '--short', 'HEAD');
    const dirty = git('status', '--porcelain', '--', 'src') !== '';
    return dirty ? `${head} (src modified)` : head;
  } catch {
    return 'unknown';
  }
}

function machine() {
  return {
    cpus: os.availableParallelism(),
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
  };
}

function ratioCell(r: ScenarioResult): string {
  const ratio = r.ratio >= 10 ? `${r.ratio.toFixed(0)}×` : `${(r.ratio * 100).toFixed(1)}%`;
  if (r.goalText !== undefined && r.goalMet === undefined) return `${ratio} (${r.goalText})`;
  if (r.goalText !== undefined) return `${ratio} (goal ${r.goalText}${r.goalMet ? ', met' : ', NOT met'})`;
  return `${ratio} (goal ≥ ${r.goal * 100}%${r.ratio >= r.goal ? ', met' : ', NOT met'})`;
}

function cpuNote(r: ScenarioResult): string[] {
  const target = r.target.cpuMicrosPerRequest;
  const baseline = r.baseline.cpuMicrosPerRequest;
  if (target === undefined || baseline === undefined) return [];
  return [`server CPU per request ${target} µs, baseline ${baseline} µs: ${((baseline / target) * 100).toFixed(1)}% by CPU`];
}

function notes(results: ScenarioResult[]): string {
  const lines = results.flatMap((r) => [...cpuNote(r), ...(r.notes ?? [])].map((note) => `${r.name}: ${note}`));
  return lines.length > 0 ? `\n${lines.join('\n')}\n` : '';
}

function table(results: ScenarioResult[]): string {
  const rows = [['scenario', 'target', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'vs baseline']];
  for (const r of results) {
    for (const m of [r.target, r.baseline]) {
      const isTarget = m === r.target;
      rows.push([
        isTarget ? r.name : '',
        m.label,
        Math.round(m.requestsPerSecond).toLocaleString('en-US'),
        String(m.latencyP50Ms),
        String(m.latencyP99Ms),
        m.totalRequests.toLocaleString('en-US'),
        isTarget ? ratioCell(r) : '',
      ]);
    }
  }
  const widths = rows[0].map((_, col) => Math.max(...rows.map((row) => row[col].length)));
  const line = (row: string[]) =>
    row.map((cell, col) => (col >= 2 && col <= 5 ? cell.padStart(widths[col]) : cell.padEnd(widths[col]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      duration: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '50' },
      database: { type: 'string', default: 'sqlite' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return;
  }
  const settings: LoadSettings = {
    durationSeconds: positiveInteger('duration', values.duration),
    warmupSeconds: positiveInteger('warmup', values.warmup),
    connections: positiveInteger('connections', values.connections),
  };
  const selected = selectScenarios(positionals);
  const databases = databasesFrom(values.database);

  // The scenarios run the built service, so build what is in src now.
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repoRoot, stdio: 'inherit' });
  if (build.status !== 0) throw new Error('npm run build failed');

  const results: ScenarioResult[] = [];
  for (const scenario of selected) {
    process.stdout.write(
      `${scenario.name}: ${scenario.description}\n  ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s, ${settings.connections} connections per target\n`,
    );
    const on = scenario.databases ? databases.filter((d) => scenario.databases?.includes(d)) : [undefined];
    for (const database of on) {
      if (database) process.stdout.write(`  on ${database}\n`);
      results.push(await scenario.run({ ...settings, database }));
    }
  }
  process.stdout.write(`\n${table(results)}\n${notes(results)}`);

  const report = {
    date: new Date().toISOString(),
    commit: commit(),
    command: ['npm run bench', ...(process.argv.length > 2 ? ['--', ...process.argv.slice(2)] : [])].join(' '),
    machine: machine(),
    settings,
    results,
  };
  const file = path.join(repoRoot, 'bench', 'results', 'latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`\nwritten to ${path.relative(process.cwd(), file)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
