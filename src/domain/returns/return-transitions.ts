import { RETURN_STATUS, type ReturnStatus } from '../../core/return-status.js';

/**
 * The return ticket's `return_status` and how it moves. The create response says `pending`; every other
 * view (shipment details v5.2, the update endpoint) says `pending approval` for the same state.
 *
 * | state                   | trigger                                   | condition                   | next state              | other effects |
 * |-------------------------|-------------------------------------------|-----------------------------|-------------------------|---------------|
 * | (none)                  | POST /v5/return/                          | valid request               | pending approval        | return shipment created (tracked at once in the preprinted flow) |
 * | pending approval        | merchant update                           |                             | approved                | |
 * | pending approval        | merchant update                           | reject_reason given         | rejected                | |
 * | pending approval, approved, carrier booking pending | merchant update |                          | cancelled               | |
 * | approved                | POST /v5/booking/ on the return shipment  | carrier enabled for returns | carrier booking pending | label provisioned, tracking starts |
 * | pending approval, approved, carrier booking pending | tracking | the parcel moves (any phase but info received) | shipping | |
 * | shipping (and earlier)  | tracking                                  | delivered back              | completed               | |
 * | approved, carrier booking pending, shipping | tracking            | no carrier update within the window | inactive         | |
 * | inactive                | tracking                                  | the carrier reports again   | shipping                | |
 * | rejected, cancelled, completed, inactive | merchant update          |                             | archived                | |
 */
const S = RETURN_STATUS;

/** What a merchant may set through POST /v5/return/update/, from each state. */
export const MERCHANT_TRANSITIONS: Readonly<Record<ReturnStatus, readonly ReturnStatus[]>> = {
  [S.pendingApproval]: [S.approved, S.rejected, S.cancelled],
  [S.approved]: [S.cancelled],
  [S.carrierBookingPending]: [S.cancelled],
  [S.shipping]: [],
  [S.completed]: [S.archived],
  [S.rejected]: [S.archived],
  [S.cancelled]: [S.archived],
  [S.inactive]: [S.archived],
  [S.archived]: [],
};

/** The state tracking of the return shipment leads to, or null when it does not move the ticket. */
export function statusFromTracking(current: ReturnStatus, shipmentStatus: string, phaseKey: string | null): ReturnStatus | null {
  const open: readonly ReturnStatus[] = [S.pendingApproval, S.approved, S.carrierBookingPending, S.shipping, S.inactive];
  if (!open.includes(current)) return null;
  if (shipmentStatus === 'delivered') return S.completed;
  if (shipmentStatus === 'expired' || shipmentStatus === 'inactive') {
    return current === S.pendingApproval ? null : current === S.inactive ? null : S.inactive;
  }
  if (phaseKey !== null && phaseKey !== 'info_received' && current !== S.shipping) return S.shipping;
  return null;
}

/** The word the create response uses for a state (the interface's create answer says `pending`). */
export function createResponseStatus(status: ReturnStatus): string {
  return status === S.pendingApproval ? 'pending' : status;
}
