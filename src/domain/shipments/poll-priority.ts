import { isPhaseKey, PHASE_KEYS } from '../../carriers/phases.js';
import type { PollRanking, ShipmentRow } from '../../db/repositories/shipments.repository.js';
import { pollIntervalOf } from './poll-schedule.js';

/** What the ranking reads of a shipment. */
type RankedRow = Pick<ShipmentRow, 'id' | 'phase_key' | 'poll_deferred_since' | 'last_tracking_update_at'>;

const DAY_MS = 86_400_000;
const URGENT_PHASES = ['out_for_delivery', 'failed_attempt'];

/**
 * The order in which due shipments spend a credential's scarce daily calls (lower first):
 * 0. deferred for three times their phase's interval already (so none waits more than four);
 * 1. out for delivery or after a failed attempt (the consumer is waiting at the door);
 * 2. changed in the last day (news comes in bursts);
 * 3. the rest.
 */
export function pollPriority(row: RankedRow, now: Date): number {
  const phase = isPhaseKey(row.phase_key) ? row.phase_key : null;
  if (row.poll_deferred_since && now.getTime() - Date.parse(row.poll_deferred_since) >= 3 * pollIntervalOf(phase)) return 0;
  if (phase !== null && URGENT_PHASES.includes(phase)) return 1;
  if (row.last_tracking_update_at && now.getTime() - Date.parse(row.last_tracking_update_at) < DAY_MS) return 2;
  return 3;
}

/**
 * Splits due shipments into those polled now (at most `budget`, most urgent first; the longest-deferred
 * first within a rank) and those put off until the quota resets.
 */
export function choosePolls<R extends RankedRow>(rows: readonly R[], budget: number, now: Date): { poll: R[]; defer: R[] } {
  if (rows.length <= budget) return { poll: [...rows], defer: [] };
  const ranked = rows
    .map((row) => ({ row, rank: pollPriority(row, now), since: row.poll_deferred_since ?? '~' }))
    .sort((a, b) => a.rank - b.rank || (a.since < b.since ? -1 : a.since > b.since ? 1 : a.row.id - b.row.id));
  const take = Math.max(0, Math.floor(budget));
  return { poll: ranked.slice(0, take).map((r) => r.row), defer: ranked.slice(take).map((r) => r.row) };
}

/**
 * `pollPriority` at `now` as the bounds the database ranks a whole due set by (ShipmentsRepository.rankedDuePollsOf),
 * in the same order as `choosePolls`.
 */
export function pollRanking(now: Date): PollRanking {
  const before = (ms: number) => new Date(now.getTime() - ms).toISOString();
  return {
    starvingBefore: PHASE_KEYS.map((phase) => [phase, before(3 * pollIntervalOf(phase))]),
    otherwiseStarvingBefore: before(3 * pollIntervalOf(null)),
    urgentPhases: URGENT_PHASES,
    changedAfter: before(DAY_MS),
  };
}
