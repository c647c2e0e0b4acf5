import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CarrierMetrics } from '../../../src/carriers/sdk/carrier-metrics.js';
import { CarrierHttp } from '../../../src/carriers/sdk/http.js';
import { CredentialGate } from '../../../src/carriers/sdk/limits.js';
import { CarrierServer } from '../support/carrier-server.js';
import { TEST_LIMITS } from './test-carrier.js';

describe('pacing counts from when a request leaves, and sizes what a credential can serve', () => {
  let server: CarrierServer;
  beforeEach(async () => {
    server = await new CarrierServer().start();
    server.on('GET', '/ping', () => ({ body: { ok: true } }));
  });
  afterEach(() => server.close());

  it('the transport tells a call when its request is written to a connection, once per request', async () => {
    const http = new CarrierHttp(new CarrierMetrics());
    let sent = 0;
    const answered = await http.call({ carrier: 'tstcar', method: 'GET', url: `${server.url}/ping`, sent: () => sent++ });
    expect('status' in answered && answered.status).toBe(200);
    expect(sent).toBe(1);
    // A request that cannot reach a connection is never told.
    let never = 0;
    await http.call({ carrier: 'tstcar', method: 'GET', url: 'http://127.0.0.1:1/ping', sent: () => never++, retry: false });
    expect(never).toBe(0);
    await http.close();
  });

  it('a request written after its turn spaces the next one from when it left', async () => {
    const start = Date.parse('2026-11-23T12:00:00Z');
    let clock = start;
    // Two a second: 530 ms apart (5% and 5 ms to spare).
    const onTime = new CredentialGate({ ...TEST_LIMITS, requests_per_second: 2 }, () => clock);
    const late = new CredentialGate({ ...TEST_LIMITS, requests_per_second: 2 }, () => clock);
    expect(await onTime.pace()).toBe('ok');
    expect(await late.pace()).toBe('ok');
    onTime.sent();
    // This one waited 400 ms for a connection after its turn.
    clock = start + 400;
    late.sent();
    clock = start + 530;
    expect(onTime.capacity(100)).toBe(1);
    expect(late.capacity(100)).toBe(0);
    clock = start + 930;
    expect(late.capacity(0)).toBe(1);
  });

  it('capacity: the requests a horizon holds at the pace, none while paused, none past the quota', () => {
    let clock = Date.parse('2026-11-23T12:00:00Z');
    const gate = new CredentialGate({ ...TEST_LIMITS, requests_per_second: 10, daily_quota: 5 }, () => clock);
    // 110 ms apart (10 a second with 5% and 5 ms to spare): a fresh credential sends at once, then every 110 ms.
    expect(gate.capacity(1000)).toBe(5);
    expect(gate.capacity(300)).toBe(3);
    gate.pause('rate', clock + 1000);
    expect(gate.capacity(1000)).toBe(0);
    clock += 1001;
    expect(gate.capacity(0)).toBe(1);
  });
});
