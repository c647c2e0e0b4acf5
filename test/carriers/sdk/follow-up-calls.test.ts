import { describe, expect, it } from 'vitest';
import { CredentialGate } from '../../../src/carriers/sdk/limits.js';
import { TEST_LIMITS } from './test-carrier.js';

describe('follow-up calls per number: what a credential has needed lately beyond its batch calls', () => {
  const gate = () => new CredentialGate({ ...TEST_LIMITS }, () => Date.parse('2026-11-23T12:00:00Z'));

  it('none before any report: the first claims are sized as if no number needed one', () => {
    expect(gate().followUpsPerNumber()).toBe(0);
  });

  it('the ratio of what was reported, each batch weighing as many numbers as it held', () => {
    const g = gate();
    g.noteFollowUps(4, 3);
    expect(g.followUpsPerNumber()).toBe(0.75);
    // A batch of one that needed one weighs a quarter of the four before it (less the little they have faded).
    g.noteFollowUps(1, 1);
    const kept = 0.5 ** (1 / 200);
    expect(g.followUpsPerNumber()).toBeCloseTo((3 * kept + 1) / (4 * kept + 1), 12);
  });

  it('what was reported 200 numbers ago counts half: the ratio follows a change within a few rounds', () => {
    const g = gate();
    g.noteFollowUps(200, 200);
    g.noteFollowUps(200, 0);
    expect(g.followUpsPerNumber()).toBeCloseTo(100 / 300, 12);
    for (let i = 0; i < 20; i++) g.noteFollowUps(100, 0);
    expect(g.followUpsPerNumber()).toBeLessThan(0.001);
  });

  it('a report of no numbers, or of a count that is not one, changes nothing', () => {
    const g = gate();
    g.noteFollowUps(10, 5);
    g.noteFollowUps(0, 5);
    g.noteFollowUps(10, Number.NaN);
    g.noteFollowUps(Number.NaN, 1);
    g.noteFollowUps(10, -1);
    expect(g.followUpsPerNumber()).toBe(0.5);
  });
});
