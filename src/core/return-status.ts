/**
 * The states of a return ticket's `return_status`. How a ticket moves between them is a rule of the returns
 * service (src/domain/returns/return-transitions.ts); the values live here because schemas and pages list them.
 */
export const RETURN_STATUS = {
  pendingApproval: 'pending approval',
  rejected: 'rejected',
  approved: 'approved',
  carrierBookingPending: 'carrier booking pending',
  shipping: 'shipping',
  completed: 'completed',
  cancelled: 'cancelled',
  inactive: 'inactive',
  archived: 'archived',
} as const;

export type ReturnStatus = (typeof RETURN_STATUS)[keyof typeof RETURN_STATUS];

export const RETURN_STATUSES: readonly ReturnStatus[] = Object.values(RETURN_STATUS);
