/**
 * English: every message, and the fallback for a key another language lacks. ICU MessageFormat: an ASCII
 * apostrophe right before `{` quotes the argument away, so texts use ’ (SMS texts, which keep to the GSM
 * 7-bit alphabet, use ' only away from braces).
 */
export const en: Readonly<Record<string, string>> = {
  'tracking_page.skip_link': 'Skip to content',
  'tracking_page.page_title': 'Track your parcel',
  'tracking_page.heading': 'Your parcel',
  'tracking_page.tracking_number': 'Tracking number',
  'tracking_page.carrier': 'Carrier',
  'tracking_page.current_status': 'Current status',
  'tracking_page.progress_label': 'Delivery progress',
  'tracking_page.step_done': 'completed',
  'tracking_page.step_current': 'current step',
  'tracking_page.step_upcoming': 'not yet reached',
  'tracking_page.phase.info_received': 'Information received',
  'tracking_page.phase.in_transit': 'In transit',
  'tracking_page.phase.out_for_delivery': 'Out for delivery',
  'tracking_page.phase.failed_attempt': 'Delivery attempt failed',
  'tracking_page.phase.available_for_pickup': 'Ready for pickup',
  'tracking_page.phase.delivered': 'Delivered',
  'tracking_page.phase.exception': 'Delivery problem',
  'tracking_page.phase.return_to_sender': 'Returning to sender',
  'tracking_page.no_information': 'Waiting for the first update from the carrier',
  'tracking_page.expected_delivery': 'Expected delivery',
  'tracking_page.expected_on': '{date}',
  'tracking_page.expected_between': '{from} – {to}',
  'tracking_page.timeline': 'Tracking history',
  'tracking_page.no_events': 'No tracking events yet. Updates appear here as soon as the carrier reports them.',
  'tracking_page.notice.exception': 'The carrier reported a problem with this parcel. It may arrive later than expected.',
  'tracking_page.notice.return_to_sender': 'This parcel is on its way back to the sender.',
  'tracking_page.notice.failed_attempt': 'The carrier could not deliver the parcel and will try again or leave instructions.',
  'tracking_page.notice.available_for_pickup': 'The parcel is waiting for you at a pickup point.',
  'tracking_page.not_found_title': 'Tracking page not found',
  'tracking_page.not_found_text': 'There is no parcel behind this link. Check the link in your shipping notification.',
  'tracking_page.footer': 'Times are shown in the local time of each event where it is known.',

  'notification.info_received.subject': 'Your parcel from {merchant} is being prepared',
  'notification.info_received.heading': 'Your parcel is being prepared',
  'notification.info_received.body':
    'Your parcel from {merchant} is being prepared and will be handed to the carrier soon. You can follow it online at any time.',
  'notification.info_received.sms': '{merchant}: your parcel is being prepared for shipping. Track it: {url}',

  'notification.in_transit.subject': 'Your parcel from {merchant} is on its way',
  'notification.in_transit.heading': 'Your parcel is on its way',
  'notification.in_transit.body': 'Good news: your parcel from {merchant} is on its way to you. You can follow it online at any time.',
  'notification.in_transit.sms': '{merchant}: your parcel is on its way. Track it: {url}',

  'notification.out_for_delivery.subject': 'Your parcel from {merchant} arrives today',
  'notification.out_for_delivery.heading': 'Out for delivery today',
  'notification.out_for_delivery.body':
    'Your parcel from {merchant} is out for delivery and should arrive today. Please make sure someone can receive it.',
  'notification.out_for_delivery.sms': '{merchant}: your parcel is out for delivery and arrives today. Track it: {url}',

  'notification.available_for_pickup.subject': 'Your parcel from {merchant} is ready for pickup',
  'notification.available_for_pickup.heading': 'Ready for pickup',
  'notification.available_for_pickup.body':
    'Your parcel from {merchant} is waiting for you at a pickup point. Please collect it soon: parcels are only kept there for a limited time.',
  'notification.available_for_pickup.sms': '{merchant}: your parcel is ready for pickup. Please collect it soon. Details: {url}',

  'notification.failed_attempt.subject': 'Delivery attempt for your parcel from {merchant}',
  'notification.failed_attempt.heading': 'Your parcel could not be delivered',
  'notification.failed_attempt.body':
    'The carrier tried to deliver your parcel from {merchant} but could not hand it over. They will try again or leave instructions on what happens next.',
  'notification.failed_attempt.sms': '{merchant}: the carrier could not deliver your parcel. Next steps: {url}',

  'notification.exception.subject': 'An update on your parcel from {merchant}',
  'notification.exception.heading': 'A problem with your delivery',
  'notification.exception.body':
    'The carrier has reported a problem with your parcel from {merchant}, so it may arrive later than expected. The tracking page shows the latest status.',
  'notification.exception.sms': '{merchant}: the carrier reported a problem with your parcel. Details: {url}',

  'notification.delivered.subject': 'Your parcel from {merchant} has been delivered',
  'notification.delivered.heading': 'Your parcel has arrived',
  'notification.delivered.body': 'Your parcel from {merchant} has been delivered. Enjoy your order!',
  'notification.delivered.sms': '{merchant}: your parcel has been delivered. Enjoy your order! Details: {url}',

  'notification.return_to_sender.subject': 'Your parcel from {merchant} is being returned',
  'notification.return_to_sender.heading': 'Your parcel is being returned',
  'notification.return_to_sender.body':
    'Your parcel from {merchant} is on its way back to the sender. If you have any questions, please contact {merchant}.',
  'notification.return_to_sender.sms': '{merchant}: your parcel is being returned to the sender. Details: {url}',

  'notification.return_requested.subject': 'We have received your return request {returnId}',
  'notification.return_requested.heading': 'Return requested',
  'notification.return_requested.body':
    '{merchant} has received your return request {returnId} and will review it shortly. You will hear from them once it has been decided.',
  'notification.return_requested.sms': '{merchant}: we have received your return request {returnId}. Details: {url}',

  'notification.return_approved.subject': 'Your return {returnId} has been approved',
  'notification.return_approved.heading': 'Return approved',
  'notification.return_approved.body': '{merchant} has approved your return {returnId}. You can now send the items back.',
  'notification.return_approved.sms': '{merchant}: your return {returnId} has been approved. Details: {url}',
  'notification.return_approved.sms_label': '{merchant}: your return {returnId} has been approved. Your return label: {url}',
  'notification.return_approved.label':
    'Your return label is ready: print it, or show its QR code at the drop-off point, from your return page: {url}',

  'notification.return_rejected.subject': 'Your return {returnId} could not be accepted',
  'notification.return_rejected.heading': 'Return not accepted',
  'notification.return_rejected.body':
    '{merchant} has reviewed your return {returnId} and is unable to accept it. Reason: {rejectReason}\n\nIf you have any questions, please contact {merchant}.',
  'notification.return_rejected.sms': '{merchant}: your return {returnId} could not be accepted. Details: {url}',

  'notification.return_received.subject': '{merchant} has received your return {returnId}',
  'notification.return_received.heading': 'Return received',
  'notification.return_received.body':
    '{merchant} has received your return {returnId}. You will hear from them once it has been processed.',
  'notification.return_received.sms': '{merchant}: we have received your return {returnId}. Details: {url}',

  'notification.refund_issued.subject': 'Your refund for return {returnId} has been issued',
  'notification.refund_issued.heading': 'Refund issued',
  'notification.refund_issued.body':
    '{merchant} has issued the refund for your return {returnId}. Depending on how you paid, it may take a few days to reach you.',
  'notification.refund_issued.sms': '{merchant}: the refund for your return {returnId} has been issued. Details: {url}',
  'notification.refund_issued.amount': 'Amount refunded:',

  'notification.common.track_button': 'Track your parcel',
  'notification.common.return_button': 'Show your return',
  'notification.common.tracking_number': 'Tracking number',
  'notification.common.carrier': 'Carrier',
  'notification.common.expected_delivery': 'Expected delivery',
  'notification.common.pickup_point': 'Pickup point',
  'notification.common.opening_hours': 'Opening hours',
  'notification.common.unsubscribe': 'Unsubscribe',
  'notification.common.footer': 'You are receiving this message because {merchant} sends you updates about your order.',

  'notification.unsubscribe.title': 'Unsubscribe from delivery updates',
  'notification.unsubscribe.confirm_button': 'Unsubscribe',
  'notification.unsubscribe.done': 'You have been unsubscribed and will no longer receive these updates.',
  'notification.unsubscribe.all_from_merchant': 'Stop all updates from {merchant}',
  'notification.unsubscribe.invalid': 'This unsubscribe link is invalid or has expired.',
};
