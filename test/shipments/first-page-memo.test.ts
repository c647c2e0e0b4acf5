import { describe, expect, it } from 'vitest';
import type { ChangeMark, ChangeWatch } from '../../src/db/change-watch.js';
import { type FirstPage, FirstPageMemo } from '../../src/domain/shipments/first-page-memo.js';

/** A watch whose answers the test sets: what `accountUnchangedSince` was asked, and whether it says unchanged. */
function settableWatch() {
  const asked: Array<{ accountId: number; rowIds: readonly number[] }> = [];
  const state = { unchanged: true, marks: true };
  const watch: ChangeWatch = {
    mark: () => (state.marks ? ({ dataVersion: 1, written: 0 } as ChangeMark) : null),
    unchangedSince: () => state.unchanged,
    accountUnchangedSince: (_mark, accountId, rowIds) => {
      asked.push({ accountId, rowIds });
      return state.unchanged;
    },
  };
  return { watch, asked, state };
}

const pageOf = (ids: number[]): FirstPage => ({ stamps: ids.map((id) => ({ id, version: 0 })), next_page: null });

describe('first list pages kept while nothing changed them', () => {
  it('answers a kept page while the watch says its account and rows are unchanged, and drops it once they are not', () => {
    const { watch, asked, state } = settableWatch();
    const memo = new FirstPageMemo(watch);
    const mark = memo.mark();
    expect(mark).not.toBeNull();
    memo.keep(7, 2, mark as ChangeMark, pageOf([3, 2]), [3, 2, 1]);
    expect(memo.get(7, 2)).toEqual(pageOf([3, 2]));
    // The rows checked are every row the read returned, the one after the page included.
    expect(asked).toEqual([{ accountId: 7, rowIds: [3, 2, 1] }]);
    expect(memo.get(7, 3)).toBeUndefined();
    expect(memo.get(8, 2)).toBeUndefined();
    expect(memo.hits).toBe(1);

    state.unchanged = false;
    expect(memo.get(7, 2)).toBeUndefined();
    state.unchanged = true;
    expect(memo.get(7, 2)).toBeUndefined();
    expect(memo.hits).toBe(1);
  });

  it('gives no mark when the watch cannot follow changes', () => {
    const { watch, state } = settableWatch();
    state.marks = false;
    expect(new FirstPageMemo(watch).mark()).toBeNull();
  });

  it('keeps at most its number of pages, dropping the oldest not answered since it was kept', () => {
    const { watch } = settableWatch();
    const memo = new FirstPageMemo(watch, 2);
    const mark = memo.mark() as ChangeMark;
    memo.keep(1, 20, mark, pageOf([1]), [1]);
    memo.keep(2, 20, mark, pageOf([2]), [2]);
    expect(memo.get(1, 20)).toBeDefined();
    memo.keep(3, 20, mark, pageOf([3]), [3]);
    expect(memo.get(2, 20)).toBeUndefined();
    expect(memo.get(1, 20)).toBeDefined();
    expect(memo.get(3, 20)).toBeDefined();
  });
});
