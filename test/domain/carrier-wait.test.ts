import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { CarrierWait, CarrierWaits, carrierWaitBudget } from '../../src/core/carrier-wait.js';

describe('the carrier wait budget', () => {
  it('is the socket timeout less the time to answer, with the lookup after a lost answer kept out of the booking call', () => {
    expect(carrierWaitBudget(60_000)).toEqual({ requestMs: 55_000, answerMs: 5_000, lookupMs: 15_000, bookingCallMs: 40_000 });
    expect(carrierWaitBudget(6_000)).toEqual({ requestMs: 5_000, answerMs: 1_000, lookupMs: 1_667, bookingCallMs: 3_333 });
    for (let seconds = 5; seconds <= 3600; seconds++) {
      const budget = carrierWaitBudget(seconds * 1000);
      expect(budget.requestMs + budget.answerMs).toBe(seconds * 1000);
      expect(budget.bookingCallMs + budget.lookupMs).toBe(budget.requestMs);
      expect(budget.bookingCallMs).toBeGreaterThan(0);
    }
  });

  it('is in the configuration, from WAYBILL_CONNECTION_TIMEOUT_SECONDS (60 by default, at least 5)', () => {
    expect(loadConfig({}).carrierWait.requestMs).toBe(55_000);
    expect(loadConfig({ WAYBILL_CONNECTION_TIMEOUT_SECONDS: '120' }).carrierWait.bookingCallMs).toBe(100_000);
    expect(() => loadConfig({ WAYBILL_CONNECTION_TIMEOUT_SECONDS: '4' })).toThrow(/WAYBILL_CONNECTION_TIMEOUT_SECONDS/);
  });

  it('refuses a carrier timeout longer than the booking call may wait, or one that is not a number of seconds', () => {
    expect(loadConfig({ WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '40' }).carrierWait.bookingCallMs).toBe(40_000);
    expect(() => loadConfig({ WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '41' })).toThrow(ConfigError);
    expect(() => loadConfig({ WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '41' })).toThrow(/at least 61\.$/);
    expect(() => loadConfig({ WAYBILL_CARRIER_DHLPDE_TIMEOUT_SECONDS: '60', WAYBILL_CONNECTION_TIMEOUT_SECONDS: '80' })).not.toThrow();
    expect(() => loadConfig({ WAYBILL_CARRIER_UPSGLB_TIMEOUT_SECONDS: 'soon' })).toThrow(/WAYBILL_CARRIER_UPSGLB_TIMEOUT_SECONDS/);
  });

  it("gives each call a signal that ends at the call's cap, before the request's end, or when the process stops", async () => {
    const stopping = new AbortController();
    const wait = new CarrierWait(carrierWaitBudget(6_000), stopping.signal, Date.now());
    const capped = wait.signal(50);
    const reserved = wait.signal(Infinity, 4_950);
    const stopped = wait.signal(Infinity);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(capped.aborted).toBe(true);
    expect(reserved.aborted).toBe(true);
    expect(stopped.aborted).toBe(false);
    stopping.abort(new Error('stopping'));
    expect(stopped.aborted).toBe(true);
  });

  it('lets any number of requests in flight wait on carriers without a listener warning', async () => {
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const waits = new CarrierWaits(carrierWaitBudget(60_000));
    const signals = Array.from({ length: 50 }, () => waits.begin().signal(10_000));
    await new Promise((resolve) => setTimeout(resolve, 20));
    process.off('warning', onWarning);
    expect(warnings.map((w) => w.name)).not.toContain('MaxListenersExceededWarning');
    waits.stopBy(Date.now());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(signals.every((signal) => signal.aborted)).toBe(true);
  });
});
