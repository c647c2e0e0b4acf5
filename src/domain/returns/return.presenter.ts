import type { ReturnStatus } from '../../core/return-status.js';
import type { ReturnRow } from '../../db/repositories/returns.repository.js';
import { createResponseStatus } from './return-transitions.js';

/** The ticket's fields kept as JSON beside its columns. */
export interface ReturnDetails {
  comment: string | null;
  refund_method: string | null;
  return_method: string | null;
  total_refund_amount: string | null;
  refund_is_calculated: boolean;
  cost_of_return: string | null;
  cost_is_calculated: boolean;
  additional_cost: string | null;
  internal_notes: string | null;
  approver_email: string | null;
  reject_reason: string | null;
  return_proofs: Array<{ url: string; file_name: string | null }>;
  booking_id: string | null;
  /**
   * When the merchant recorded that the refund was issued (`refund_issued` of POST /v5/return/update/), once;
   * absent, read as null, on tickets never refunded.
   */
  refund_issued_at?: string | null;
  /** The amount refunded, recorded with it: as the merchant said, else the ticket's total_refund_amount then. */
  refunded_amount?: string | null;
}

export function detailsOf(row: ReturnRow): ReturnDetails {
  return { refund_issued_at: null, refunded_amount: null, ...(JSON.parse(row.details) as ReturnDetails) };
}

/** The Return ticket record of the create response (its status word is `pending` for a new ticket). */
export function createdTicketView(row: ReturnRow) {
  return {
    return_uuid: row.return_uuid,
    return_id: row.return_id,
    return_status: createResponseStatus(row.status as ReturnStatus),
    requested_date: row.requested_at,
    created_date: row.created_at,
    updated_date: row.updated_at,
  };
}

/**
 * The ticket with every ReturnsInfo field, as the update endpoint (and the return webhooks) answer, and the
 * refund when one was recorded (ReturnsInfo in shipment details keeps the interface's fields only).
 */
export function fullTicketView(row: ReturnRow, shipmentUuid: string) {
  const details = detailsOf(row);
  return {
    return_uuid: row.return_uuid,
    return_id: row.return_id,
    return_status: row.status,
    requested_date: row.requested_at,
    created_date: row.created_at,
    updated_date: row.updated_at,
    shipment_uuid: shipmentUuid,
    order_id: row.order_id,
    ...details,
    refund_issued_at: details.refund_issued_at ?? null,
    refunded_amount: details.refunded_amount ?? null,
  };
}

/** ReturnsInfo, as shipment details v5.2 show it for a return shipment: the interface lists these fields exactly. */
export function returnsInfoView(row: ReturnRow, shipmentPk: number | null) {
  const details = detailsOf(row);
  return {
    order_id: row.order_id,
    id: row.return_uuid,
    return_id: row.return_id,
    return_status: row.status,
    total_refund_amount: details.total_refund_amount,
    refund_is_calculated: details.refund_is_calculated,
    comment: details.comment,
    return_proofs: details.return_proofs,
    requested_date: row.requested_at,
    updated_at: row.updated_at,
    reject_reason: details.reject_reason,
    refund_method: details.refund_method,
    return_method: details.return_method,
    cost_of_return: details.cost_of_return,
    cost_is_calculated: details.cost_is_calculated,
    additional_cost: details.additional_cost,
    internal_notes: details.internal_notes,
    approver_email: details.approver_email,
    booking_id: details.booking_id,
    shipment_pk: shipmentPk,
  };
}
