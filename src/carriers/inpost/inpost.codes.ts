import type { CodeTable } from '../sdk/codes.js';

/**
 * InPost ShipX status names → our event keys.
 *
 * Source: InPost ShipX documentation, "Statuses" (`GET /v1/statuses`, public), https://dokumentacja-inpost.atlassian.net/wiki/spaces/PL/pages/18153478,
 * read 2026-11-28, with the list of names as InPost's Magento module keeps it (InPost-Magento/smartmage_inpost,
 * `Model/Config/Source/Status.php`) and InPost's long descriptions of each status (pl_PL) as public clients
 * store them. The names are typed in; the comments are ours.
 *
 * A shipment delivered to a parcel locker or a ParcelPoint (one with a `target_machine_id`) is looked up as
 * `locker:<status>` first, then `<status>`: there `delivered` means the recipient took the parcel out.
 */
export const INPOST_STATUSES = [
  'created',
  'offers_prepared',
  'offer_selected',
  'confirmed',
  'dispatched_by_sender',
  'collected_from_sender',
  'taken_by_courier',
  'adopted_at_source_branch',
  'sent_from_source_branch',
  'ready_to_pickup_from_pok',
  'ready_to_pickup_from_pok_registered',
  'oversized',
  'adopted_at_sorting_center',
  'sent_from_sorting_center',
  'adopted_at_target_branch',
  'out_for_delivery',
  'ready_to_pickup',
  'pickup_reminder_sent',
  'delivered',
  'pickup_time_expired',
  'avizo',
  'claimed',
  'returned_to_sender',
  'canceled',
  'other',
  'dispatched_by_sender_to_pok',
  'out_for_delivery_to_address',
  'pickup_reminder_sent_address',
  'rejected_by_receiver',
  'undelivered_wrong_address',
  'undelivered_incomplete_address',
  'undelivered_unknown_receiver',
  'undelivered_cod_cash_receiver',
  'taken_by_courier_from_pok',
  'undelivered',
  'return_pickup_confirmation_to_sender',
  'ready_to_pickup_from_branch',
  'delay_in_delivery',
  'redirect_to_box',
  'canceled_redirect_to_box',
  'readdressed',
  'undelivered_no_mailbox',
  'undelivered_not_live_address',
  'undelivered_lack_of_access_letterbox',
  'missing',
  'stack_in_customer_service_point',
  'stack_parcel_pickup_time_expired',
  'unstack_from_customer_service_point',
  'courier_avizo_in_customer_service_point',
  'taken_by_courier_from_customer_service_point',
  'stack_in_box_machine',
  'unstack_from_box_machine',
  'stack_parcel_in_box_machine_pickup_time_expired',
] as const;

export const INPOST_CODES: CodeTable = {
  // Before InPost has the parcel.
  created: 'info_received', // shipment created, not yet ready to send
  offers_prepared: 'info_received',
  offer_selected: 'info_received',
  confirmed: 'label_created', // the sender prepared (paid for) the shipment
  canceled: 'cancelled', // the label was cancelled or expired; nothing was sent
  // Handed over to InPost.
  dispatched_by_sender: 'picked_up', // posted in a parcel locker
  dispatched_by_sender_to_pok: 'picked_up', // handed in at a ParcelPoint
  collected_from_sender: 'picked_up', // a courier collected it from the sender
  taken_by_courier: 'picked_up',
  // Through the network.
  taken_by_courier_from_pok: 'in_transit', // from the ParcelPoint it was posted at to a branch
  adopted_at_source_branch: 'arrived_at_facility',
  sent_from_source_branch: 'departed_facility',
  adopted_at_sorting_center: 'arrived_at_facility',
  sent_from_sorting_center: 'departed_facility',
  adopted_at_target_branch: 'arrived_at_facility',
  unstack_from_customer_service_point: 'in_transit', // on its way from a ParcelPoint that stored it to the locker
  unstack_from_box_machine: 'in_transit', // on its way from a temporary locker to the chosen one
  stack_parcel_pickup_time_expired: 'in_transit', // storage at a ParcelPoint over, the parcel goes on to the locker
  stack_parcel_in_box_machine_pickup_time_expired: 'in_transit', // the same for a temporary locker
  delay_in_delivery: 'delayed',
  // Delivery changed by the recipient, or the change undone.
  redirect_to_box: 'rescheduled', // a courier parcel redirected to a parcel locker
  canceled_redirect_to_box: 'rescheduled', // too large for the locker: delivered to the address after all
  readdressed: 'rescheduled',
  // Out for delivery.
  out_for_delivery: 'out_for_delivery',
  out_for_delivery_to_address: 'out_for_delivery',
  // Waiting for the recipient.
  ready_to_pickup: 'available_for_pickup', // in the receiving parcel locker
  ready_to_pickup_from_pok: 'available_for_pickup', // at the receiving ParcelPoint
  ready_to_pickup_from_pok_registered: 'available_for_pickup',
  pickup_reminder_sent: 'available_for_pickup', // still in the locker: the recipient was reminded
  ready_to_pickup_from_branch: 'available_for_pickup', // not collected in time, waiting at an InPost branch
  stack_in_customer_service_point: 'available_for_pickup', // the locker was full: stored at a ParcelPoint
  stack_in_box_machine: 'available_for_pickup', // the locker was full: stored in a temporary locker
  courier_avizo_in_customer_service_point: 'available_for_pickup', // a courier parcel left at a ParcelPoint
  // Delivery attempts that failed.
  pickup_reminder_sent_address: 'delivery_attempt_failed', // recipient not found, another attempt next working day
  undelivered_cod_cash_receiver: 'delivery_attempt_failed', // the recipient could not pay the cash on delivery
  undelivered_no_mailbox: 'delivery_attempt_failed',
  undelivered_lack_of_access_letterbox: 'delivery_attempt_failed',
  oversized: 'delivery_attempt_failed', // did not fit the locker's box
  pickup_time_expired: 'delivery_attempt_failed', // not collected in time; the recipient may still come before the return
  // Address problems.
  undelivered_wrong_address: 'address_issue',
  undelivered_incomplete_address: 'address_issue',
  undelivered_unknown_receiver: 'address_issue',
  undelivered_not_live_address: 'address_issue', // the recipient does not live there
  // Other exceptions.
  rejected_by_receiver: 'refused_by_recipient',
  claimed: 'damaged', // a complaint lodged at the parcel locker instead of taking the parcel
  missing: 'lost',
  // Delivered.
  delivered: 'delivered',
  'locker:delivered': 'collected_by_recipient', // taken out of the locker or collected at the point
  return_pickup_confirmation_to_sender: 'delivered', // delivered; the return receipt went to the sender
  // Back to the sender.
  avizo: 'returning_to_sender', // the courier missed the recipient again; the parcel goes back
  returned_to_sender: 'returning_to_sender', // InPost: the parcel has set off back to the sender
  taken_by_courier_from_customer_service_point: 'returning_to_sender', // not collected from the ParcelPoint; going back
};

/**
 * Statuses left without a key on purpose: `other` says nothing, and `undelivered` (handed to the store of
 * undeliverable parcels) has no event key of ours. They keep InPost's status name and are counted as unmapped.
 */
export const INPOST_UNMAPPED_STATUSES: readonly string[] = ['other', 'undelivered'];

/**
 * Statuses whose place is the shipment's receiving locker or point (`target_machine_id`): the parcel waits
 * there, or was collected there. Stored elsewhere (a ParcelPoint or temporary locker standing in) the place is
 * not given.
 */
export const AT_TARGET_POINT: ReadonlySet<string> = new Set([
  'ready_to_pickup',
  'ready_to_pickup_from_pok',
  'ready_to_pickup_from_pok_registered',
  'pickup_reminder_sent',
  'delivered',
]);
