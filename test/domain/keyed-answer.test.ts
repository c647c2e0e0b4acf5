import { describe, expect, it } from 'vitest';
import type { CarrierAdapter, CarrierEvent } from '../../src/carriers/carrier.js';
import { SandboxCarrier } from '../../src/carriers/sandbox/sandbox.carrier.js';
import { answerDigest, answerOf } from '../../src/domain/shipments/keyed-answer.js';

const adapter: CarrierAdapter = new SandboxCarrier();

function scan(hour: number, code: string): CarrierEvent {
  return {
    event: `Scan ${code}`,
    event_key: null,
    phase_key: null,
    time: `2026-11-20T${String(hour).padStart(2, '0')}:00:00Z`,
    timezone: null,
    location: { place: 'Hamburg, DE', full: null } as CarrierEvent['location'],
    additional_info: { carrier_code: code, carrier_description: code },
  };
}

describe('keyed answers: what a poll still has to store', () => {
  const three = [scan(8, 'A'), scan(9, 'B'), scan(10, 'C')];

  it('stores nothing for the answer stored last, and every event when nothing was stored', () => {
    const answer = answerOf(adapter, 'WB2000001', three);
    expect(answer.rowsSince(answer.digest)).toBeNull();
    expect(answer.rowsSince(null)?.map((r) => r.event)).toEqual(['Scan A', 'Scan B', 'Scan C']);
    expect(answer.digest).toMatch(/^3:[A-Za-z0-9+/]{43}=$/);
  });

  it('offers only the events after the stored answer when the new one begins with it', () => {
    const stored = answerOf(adapter, 'WB2000001', three.slice(0, 2)).digest;
    const rows = answerOf(adapter, 'WB2000001', three).rowsSince(stored);
    expect(rows?.map((r) => [r.event, r.sequence])).toEqual([['Scan C', 2]]);
  });

  it('offers every event when the stored answer is not where the new one begins', () => {
    // A late scan placed before the stored ones; another number's answer; a digest not made here.
    const late = answerOf(adapter, 'WB2000001', [scan(7, 'Z'), ...three]);
    expect(late.rowsSince(answerOf(adapter, 'WB2000001', three).digest)).toHaveLength(4);
    expect(late.rowsSince(answerOf(adapter, 'WB2000002', three).digest)).toHaveLength(4);
    expect(late.rowsSince('not a digest')).toHaveLength(4);
    expect(late.rowsSince(answerDigest([]))).toHaveLength(4);
  });
});
