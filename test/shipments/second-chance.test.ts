import { describe, expect, it } from 'vitest';
import type { ChangeMark, ChangeWatch } from '../../src/db/change-watch.js';
import type { ShipmentHead } from '../../src/db/repositories/shipments.repository.js';
import { ShipmentHeadMemo } from '../../src/domain/shipments/shipment-head-memo.js';
import { ShipmentJsonCache } from '../../src/domain/shipments/shipment-json-cache.js';

const text = (bytes: number) => ({ json: Buffer.alloc(bytes, 'x'), eventsStart: 0, eventsEnd: 0 });

describe('the kept renderings drop the oldest unanswered first', () => {
  // Each entry counts its bytes and 200 more: three of 100 bytes fit in 900, a fourth does not.
  it('spares once an entry answered since it was kept, and drops the oldest unanswered', () => {
    const cache = new ShipmentJsonCache(900);
    cache.set('v5', 1, 0, text(100));
    cache.set('v5', 2, 0, text(100));
    cache.set('v5', 3, 0, text(100));
    expect(cache.get('v5', 1, 0)).toBeDefined();
    cache.set('v5', 4, 0, text(100));
    expect(cache.get('v5', 2, 0)).toBeUndefined();
    expect(cache.get('v5', 1, 0)).toBeDefined();
    expect(cache.get('v5', 3, 0)).toBeDefined();
    expect(cache.get('v5', 4, 0)).toBeDefined();
    expect(cache.usage.entries).toBe(3);
    expect(cache.usage.bytes).toBe(900);
  });

  it('drops an entry once it was spared and not answered again', () => {
    const cache = new ShipmentJsonCache(900);
    cache.set('v5', 1, 0, text(100));
    cache.set('v5', 2, 0, text(100));
    cache.set('v5', 3, 0, text(100));
    cache.get('v5', 1, 0);
    cache.set('v5', 4, 0, text(100)); // 2 goes; 1 spared, now behind 3 and 4
    cache.set('v5', 5, 0, text(100)); // 3 goes
    cache.set('v5', 6, 0, text(100)); // 4 goes
    cache.set('v5', 7, 0, text(100)); // 1, spared once already and not answered since, goes
    expect(cache.get('v5', 1, 0)).toBeUndefined();
    expect([5, 6, 7].map((id) => cache.get('v5', id, 0) !== undefined)).toEqual([true, true, true]);
  });

  it('keeps the two shapes of one shipment apart, and answers only the version asked', () => {
    const cache = new ShipmentJsonCache(10_000);
    cache.set('v5', 7, 3, { json: Buffer.from('[v5]'), eventsStart: 1, eventsEnd: 3 });
    cache.set('v5.2', 7, 4, { json: Buffer.from('[v5.2]'), eventsStart: 1, eventsEnd: 5 });
    expect(cache.get('v5', 7, 3)?.toString()).toBe('[v5]');
    expect(cache.get('v5.2', 7, 4)?.toString()).toBe('[v5.2]');
    expect(cache.get('v5', 7, 4)).toBeUndefined();
    expect(cache.get('v5', 8, 3)).toBeUndefined();
    // The events' bytes of a kept rendering, by the same key and version.
    expect(Buffer.from(cache.keptEvents('v5.2', 7, 4) ?? []).toString()).toBe('v5.2');
    expect(Buffer.from(cache.keptEvents('v5', 7, 3) ?? []).toString()).toBe('v5');
    expect(cache.keptEvents('v5.2', 7, 3)).toBeUndefined();
    expect(cache.keptEvents('v5', 8, 3)).toBeUndefined();
  });

  it('drops every entry when all were answered, oldest first, without looping', () => {
    const cache = new ShipmentJsonCache(900);
    for (const id of [1, 2, 3]) cache.set('v5', id, 0, text(100));
    for (const id of [1, 2, 3]) cache.get('v5', id, 0);
    cache.set('v5', 4, 0, text(100));
    expect(cache.get('v5', 1, 0)).toBeUndefined();
    expect([2, 3, 4].map((id) => cache.get('v5', id, 0) !== undefined)).toEqual([true, true, true]);
  });
});

describe('the kept heads drop the oldest unanswered first', () => {
  const unchanged: ChangeWatch = {
    mark: () => ({ dataVersion: 1, written: 0 }) as unknown as ChangeMark,
    unchangedSince: () => true,
    accountUnchangedSince: () => true,
  } as unknown as ChangeWatch;

  it('spares a head answered since it was kept, and reads again the one dropped', async () => {
    const reads: string[] = [];
    const heads = {
      head: async (_account: number, _by: 'shipment_uuid' | 'shipment_id', value: string) => {
        reads.push(value);
        return { id: Number(value) } as unknown as ShipmentHead;
      },
    };
    const memo = new ShipmentHeadMemo(heads, unchanged, 2);
    await memo.head(1, 'shipment_id', '1');
    await memo.head(1, 'shipment_id', '2');
    await memo.head(1, 'shipment_id', '1'); // answered without a read
    await memo.head(1, 'shipment_id', '3'); // 2 goes, 1 is spared
    await memo.head(1, 'shipment_id', '1');
    await memo.head(1, 'shipment_id', '2');
    expect(reads).toEqual(['1', '2', '3', '2']);
    expect(memo.hits).toBe(2);
  });
});
