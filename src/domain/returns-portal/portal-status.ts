import { RETURN_STATUS } from '../../core/return-status.js';

/** The steps of a return as the consumer follows them, and the two ends that stop them. */
export const PORTAL_STEPS = ['requested', 'approved', 'label_ready', 'in_transit', 'received', 'refunded'] as const;
export type PortalReturnStatus = (typeof PORTAL_STEPS)[number] | 'rejected' | 'cancelled';

/**
 * Where a return stands for the consumer: the ticket's state, whether its label is ready, and whether the
 * merchant recorded the refund (`refund_issued_at` in the ticket's details).
 */
export function portalStatusOf(ticketStatus: string, labelReady: boolean, details: Readonly<Record<string, unknown>>): PortalReturnStatus {
  if (details.refund_issued_at) return 'refunded';
  switch (ticketStatus) {
    case RETURN_STATUS.pendingApproval:
      return 'requested';
    case RETURN_STATUS.rejected:
      return 'rejected';
    case RETURN_STATUS.cancelled:
      return 'cancelled';
    case RETURN_STATUS.shipping:
    case RETURN_STATUS.inactive:
      return 'in_transit';
    case RETURN_STATUS.completed:
    case RETURN_STATUS.archived:
      return 'received';
    default:
      return labelReady ? 'label_ready' : 'approved';
  }
}
