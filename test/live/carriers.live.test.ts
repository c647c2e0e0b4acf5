import { describe, expect, it } from 'vitest';
import { defaultCarrierRegistry } from '../../src/carriers/registry.js';
import { isSecret } from '../../src/carriers/sdk/settings.js';
import { carrierToolkit } from '../../src/carriers/sdk/toolkit.js';
import { checkResult } from '../carriers/contract.js';
import { requestsFor } from '../carriers/support/kit.js';

/**
 * Live checks against the carriers' own APIs, run by `npm run test:live` and only for carriers whose
 * credentials are in the environment: `WAYBILL_LIVE_<ID>_<SETTING>` for each setting (e.g.
 * `WAYBILL_LIVE_UPSGLB_CLIENT_ID`, `…_CLIENT_SECRET`, `…_ENVIRONMENT=sandbox`) and
 * `WAYBILL_LIVE_<ID>_TRACKING_NUMBERS` (comma-separated). They assert the contract's invariants, never exact
 * events: a live parcel's story changes from one run to the next.
 */
const registry = defaultCarrierRegistry(carrierToolkit({ env: process.env }));

for (const adapter of registry.all().filter((a) => a.limits)) {
  const id = adapter.record.id;
  const prefix = `WAYBILL_LIVE_${id.toUpperCase()}_`;
  const settings: Record<string, unknown> = {};
  for (const name of Object.keys(adapter.settingsSchema.properties)) {
    const value = process.env[`${prefix}${name.toUpperCase()}`];
    if (value !== undefined) settings[name] = /^\d+$/.test(value) && name.endsWith('_seconds') ? Number(value) : value;
  }
  const numbers = (process.env[`${prefix}TRACKING_NUMBERS`] ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  const configured = numbers.length > 0 && Object.keys(settings).length > 0;

  describe.skipIf(!configured)(`${id} live (${prefix}… set)`, () => {
    it('answers every number in order, with readable times, oldest first, and no secret in any result', async () => {
      const results = await adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal: AbortSignal.timeout(60_000) });
      expect(results.map((r) => r.tracking_number)).toEqual(numbers);
      for (const result of results) checkResult(result);
      const text = JSON.stringify(results);
      for (const [name, value] of Object.entries(settings)) {
        if (typeof value === 'string' && isSecret(adapter.settingsSchema.properties[name])) expect(text).not.toContain(value);
      }
      // A second poll gives the same events for the same numbers (or more, never fewer known ones).
      const again = await adapter.track(requestsFor(...numbers), settings, { now: new Date(), signal: AbortSignal.timeout(60_000) });
      for (const [i, result] of again.entries()) {
        const first = results[i];
        if (first.status === 'ok' && result.status === 'ok') expect(result.events.length).toBeGreaterThanOrEqual(first.events.length);
      }
    });
  });
}

describe('live carrier tests', () => {
  it('run only for carriers whose credentials are in the environment', () => {
    expect(registry.all().length).toBeGreaterThan(1);
  });
});
