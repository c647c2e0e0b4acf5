import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, ServiceProcess, sleep } from './service-process.js';

/** How often the process's main thread has waited for something (its event loop's next event, mostly). */
function mainThreadWaits(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/task/${pid}/status`, 'utf8');
  return Number(/^voluntary_ctxt_switches:\s+(\d+)$/m.exec(status)?.[1]);
}

describe.runIf(process.platform === 'linux')('a service at rest', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-at-rest-'));
  let service: ServiceProcess;
  beforeAll(async () => {
    service = new ServiceProcess(await freePort(), {
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: `wbadm_${randomBytes(16).toString('hex')}`,
    });
    await service.start();
  });
  afterAll(async () => {
    await service?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('wakes its main thread some 25 times a second (the event loop sampled every 50 ms), not 100', async () => {
    // Past the start's own work (the first jobs' claims, the checkpointer's start).
    await sleep(1000);
    const pid = service.pid as number;
    const before = mainThreadWaits(pid);
    await sleep(3000);
    const perSecond = (mainThreadWaits(pid) - before) / 3;
    expect(perSecond).toBeGreaterThan(0);
    expect(perSecond, service.diagnostics).toBeLessThan(60);
  });

  it('still reports the event loop lag at /metrics', async () => {
    const body = await (await fetch(`${service.url}/metrics`)).text();
    const p99 = Number(/^nodejs_eventloop_lag_p99_seconds (\S+)$/m.exec(body)?.[1]);
    expect(p99).toBeGreaterThan(0);
    expect(p99).toBeLessThan(1);
  });
});
