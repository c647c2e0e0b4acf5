import { describe, expect, it } from 'vitest';
import { DEFAULT_TRIGGERS, RETURN_TRIGGERS, triggersOfReturn } from '../../src/core/notification-triggers.js';

/** Which consumer messages a change of a return ticket fires (each is then sent once, whatever fires it again). */
describe('triggersOfReturn', () => {
  const ticket = (status: string, refund_issued_at: string | null = null) => ({ status, refund_issued_at });

  it('fires return_requested for a return created pending approval, return_approved for one created approved', () => {
    expect(triggersOfReturn('created', ticket('pending approval'))).toEqual(['return_requested']);
    expect(triggersOfReturn('created', ticket('approved'))).toEqual(['return_approved']);
  });

  it('fires nothing for a later change of a pending return: it was requested once', () => {
    expect(triggersOfReturn('updated', ticket('pending approval'))).toEqual([]);
  });

  it('fires each decision, and refund_issued once a refund is recorded, beside the state’s own', () => {
    expect(triggersOfReturn('updated', ticket('rejected'))).toEqual(['return_rejected']);
    expect(triggersOfReturn('updated', ticket('completed'))).toEqual(['return_received']);
    expect(triggersOfReturn('updated', ticket('approved', '2026-11-24T09:31:00.000Z'))).toEqual(['return_approved', 'refund_issued']);
    expect(triggersOfReturn('updated', ticket('shipping', '2026-11-24T09:31:00.000Z'))).toEqual(['refund_issued']);
    expect(triggersOfReturn('updated', ticket('carrier booking pending'))).toEqual([]);
  });

  it('leaves every return trigger off by default', () => {
    for (const trigger of RETURN_TRIGGERS) expect(DEFAULT_TRIGGERS).not.toContain(trigger);
  });
});
