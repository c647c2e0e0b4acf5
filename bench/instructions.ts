/**
 * The instructions one request costs the service, counted by valgrind's callgrind (`node --import tsx
 * bench/instructions.ts`, after `npm run build`): `dist/main.js serve` of INSTRUCTIONS_ROOT (this checkout by
 * default) runs under callgrind with counting off while one merchant's requests warm it up (INSTRUCTIONS_WARMUP,
 * 4,000), then on for INSTRUCTIONS_REQUESTS more (300), sent one at a time. INSTRUCTIONS_KIND says which: `creates`,
 * `updates` (a note), `writes` (three creates to one update, as in the mixed load), `details` (v5.2) or `list` (a
 * first page of 20). Prints the instructions per request and leaves callgrind's file (INSTRUCTIONS_OUT,
 * `/tmp/waybill-instructions.out`, numbered `.1`) for `callgrind_annotate`.
 *
 * The service's `node` gets the flags of the measured tree's start script (package.json, as `npm start` and the
 * runner's scenarios give them), then INSTRUCTIONS_NODE_FLAGS (of a flag given twice, the last counts:
 * `--v8-pool-size=4 --heap-growing-percent=0` counts with V8's own pool and heap growth, as the counts before the
 * round of 2026-12-07 15:56–16:35 did); INSTRUCTIONS_SINGLE_THREADED=1 adds `--single-threaded`.
 * A count, not a time: it does not move with what else the machine runs, so two trees can be compared on a busy
 * machine, a create's count on the request thread within about 2% from run to run (the whole process's within
 * about 3% with the start script's flags; 9% apart in a pair without them). Under callgrind a full collection
 * throws away the request path's optimized code ("weak objects") to be compiled again, which a native run does
 * not: the start script's heap growth makes such a collection rarer among the counted requests. A write's code is
 * still being optimized after 4,000 requests: 12,000 of warm-up count its steady state.
 * INSTRUCTIONS_LISTED=1 asks for a list page before the warm-up: the merchant then counts as one that lists, whose
 * creates keep their list rendering, as the mixed load's merchants do.
 * INSTRUCTIONS_ADDITIONAL_KEY=same|new|late puts a first custom field in each create's `additional_info`, named alike
 * in every create, after the create, or alike and otherwise (`withCustomFieldKey`): what custom fields named after a
 * merchant's records cost. Two namings (`new,late`) name the warm-up's and the counted creates' fields apart.
 * INSTRUCTIONS_COMMAND=start runs `dist/main.js start` (API and worker in one process, what `npm start` runs): the
 * count then holds the worker's polls of the shipments created, the sandbox carrier's answers among them.
 * It counts user-space instructions only: what the kernel does for a system call (a write to the log, a socket's
 * send) is not in it, nor is time spent waiting.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { customFieldKeyFrom, newAdminToken, shipmentBody, startScriptFlags, withCustomFieldKey } from './fixtures.js';
import { childEnv, freePort } from './harness.js';
import { seedMerchants, tokenFor } from './merchants.js';

const kind = process.env.INSTRUCTIONS_KIND ?? 'writes';
const command = process.env.INSTRUCTIONS_COMMAND === 'start' ? 'start' : 'serve';
const requests = Number(process.env.INSTRUCTIONS_REQUESTS ?? 300);
const warmup = Number(process.env.INSTRUCTIONS_WARMUP ?? 4000);
const out = process.env.INSTRUCTIONS_OUT ?? path.join(os.tmpdir(), 'waybill-instructions.out');
const root = process.env.INSTRUCTIONS_ROOT ?? process.cwd();
const [warmupField, countedField = warmupField] = (process.env.INSTRUCTIONS_ADDITIONAL_KEY ?? '')
  .split(',')
  .map((raw) => customFieldKeyFrom('INSTRUCTIONS_ADDITIONAL_KEY', raw));
let customField = warmupField;
if (!['creates', 'updates', 'writes', 'details', 'list'].includes(kind)) throw new Error(`INSTRUCTIONS_KIND: unknown kind ${kind}`);

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-instructions-'));
const [merchant] = await seedMerchants({
  dataDir: path.join(workDir, 'data'),
  accounts: 1,
  shipmentsPerAccount: 50,
  eventsPerShipment: 10,
});
for (const file of fs.readdirSync(path.dirname(out))) {
  if (file.startsWith(`${path.basename(out)}.`)) fs.rmSync(path.join(path.dirname(out), file));
}
const port = await freePort();
const env = childEnv({
  NODE_ENV: 'production',
  PORT: String(port),
  HOST: '127.0.0.1',
  WAYBILL_DATA_DIR: path.join(workDir, 'data'),
  WAYBILL_ADMIN_TOKEN: newAdminToken(),
  WAYBILL_RATE_LIMIT_PER_SECOND: '1000000',
  WAYBILL_BANNER: 'false',
  LOG_LEVEL: 'warn',
});
const nodeFlags = [
  ...startScriptFlags(root),
  ...(process.env.INSTRUCTIONS_SINGLE_THREADED === '1' ? ['--single-threaded'] : []),
  ...(process.env.INSTRUCTIONS_NODE_FLAGS ?? '').split(' ').filter(Boolean),
];
const service = spawn(
  'valgrind',
  ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${out}`, process.execPath, ...nodeFlags, 'dist/main.js', command],
  { cwd: root, env, stdio: ['ignore', 'ignore', 'ignore'] },
);
const exited = new Promise((resolve) => service.once('exit', resolve));
// callgrind_control finds the process by a file named after the user and HOST, which the service's environment sets.
const control = (...args: string[]) =>
  execFileSync('callgrind_control', [...args, String(service.pid)], { env: { ...process.env, HOST: env.HOST }, stdio: 'ignore' });

try {
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (
    !(await fetch(`${url}/healthz`).then(
      (res) => res.ok,
      () => false,
    ))
  ) {
    if (Date.now() - started > 300_000) throw new Error('the service did not start under callgrind within 5 minutes');
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const auth = { authorization: `Bearer ${await tokenFor(url, merchant)}` };
  const json = { ...auth, 'content-type': 'application/json' };
  let sent = 0;
  let creates = 0;
  const createBody = (sequence: number) => withCustomFieldKey(shipmentBody(`ins${merchant.runId}`, sequence), customField, sequence);
  const one = async () => {
    const uuid = merchant.shipmentUuids[sent % merchant.shipmentUuids.length];
    const which = kind === 'writes' ? (sent % 4 === 3 ? 'updates' : 'creates') : kind;
    sent++;
    const res =
      which === 'creates'
        ? await fetch(`${url}/v5/shipment/`, {
            method: 'POST',
            headers: json,
            body: JSON.stringify(createBody(creates++)),
          })
        : which === 'updates'
          ? await fetch(`${url}/v5-2-0/shipment/update/?shipment_uuid=${uuid}`, {
              method: 'POST',
              headers: json,
              body: JSON.stringify({ note: `note ${sent}` }),
            })
          : which === 'list'
            ? await fetch(`${url}/v5/shipment/list/?limit=20`, { headers: auth })
            : await fetch(`${url}/v5-2-0/shipment/details/?shipment_uuid=${uuid}`, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${which}: HTTP ${res.status}`);
  };
  if (process.env.INSTRUCTIONS_LISTED === '1') {
    const listed = await fetch(`${url}/v5/shipment/list/?limit=20`, { headers: auth });
    await listed.arrayBuffer();
    if (listed.status !== 200) throw new Error(`list: HTTP ${listed.status}`);
  }
  for (let i = 0; i < warmup; i++) await one();
  customField = countedField;
  control('--instr=on');
  for (let i = 0; i < requests; i++) await one();
  control('--dump');
  const dump = `${out}.1`;
  const total = Number(/^(?:summary|totals):\s+(\d+)/m.exec(fs.readFileSync(dump, 'utf8'))?.[1]);
  console.log(
    `${kind} (${command}): ${Math.round(total / requests).toLocaleString('en')} instructions a request, over ${requests} after ${warmup} (${dump})`,
  );
} finally {
  service.kill('SIGKILL');
  await exited;
  fs.rmSync(workDir, { recursive: true, force: true });
}
