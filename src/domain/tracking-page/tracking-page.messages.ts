/**
 * The words of the public tracking page, by language. English is complete and is the fallback;
 * another language is one more entry here (a missing key falls back to English too).
 */
export interface TrackingPageMessages {
  /** The locale dates and times are written in. */
  locale: string;
  pageTitle: string;
  heading: string;
  trackingNumber: string;
  carrier: string;
  currentStatus: string;
  progressLabel: string;
  stepDone: string;
  stepCurrent: string;
  stepUpcoming: string;
  steps: Record<'info_received' | 'in_transit' | 'out_for_delivery' | 'delivered', string>;
  phases: Record<string, string>;
  noInformation: string;
  expectedDelivery: string;
  expectedOn: string;
  expectedBetween: string;
  timeline: string;
  noEvents: string;
  notices: Record<'exception' | 'return_to_sender' | 'failed_attempt' | 'available_for_pickup', string>;
  notFoundTitle: string;
  notFoundText: string;
  footer: string;
}

const en: TrackingPageMessages = {
  // Day before month, 24-hour clock: read the same way by most recipients outside the US.
  locale: 'en-GB',
  pageTitle: 'Track your parcel',
  heading: 'Your parcel',
  trackingNumber: 'Tracking number',
  carrier: 'Carrier',
  currentStatus: 'Current status',
  progressLabel: 'Delivery progress',
  stepDone: 'completed',
  stepCurrent: 'current step',
  stepUpcoming: 'not yet reached',
  steps: {
    info_received: 'Information received',
    in_transit: 'In transit',
    out_for_delivery: 'Out for delivery',
    delivered: 'Delivered',
  },
  phases: {
    info_received: 'Information received',
    in_transit: 'In transit',
    out_for_delivery: 'Out for delivery',
    failed_attempt: 'Delivery attempt failed',
    available_for_pickup: 'Ready for pickup',
    delivered: 'Delivered',
    exception: 'Delivery problem',
    return_to_sender: 'Returning to sender',
  },
  noInformation: 'Waiting for the first update from the carrier',
  expectedDelivery: 'Expected delivery',
  expectedOn: '{date}',
  expectedBetween: '{from} – {to}',
  timeline: 'Tracking history',
  noEvents: 'No tracking events yet. Updates appear here as soon as the carrier reports them.',
  notices: {
    exception: 'The carrier reported a problem with this parcel. It may arrive later than expected.',
    return_to_sender: 'This parcel is on its way back to the sender.',
    failed_attempt: 'The carrier could not deliver the parcel and will try again or leave instructions.',
    available_for_pickup: 'The parcel is waiting for you at a pickup point.',
  },
  notFoundTitle: 'Tracking page not found',
  notFoundText: 'There is no parcel behind this link. Check the link in your shipping notification.',
  footer: 'Times are shown in the local time of each event where it is known.',
};

const MESSAGES: Record<string, Partial<TrackingPageMessages>> = { en };

export const DEFAULT_LANGUAGE = 'en';

/** The language to show: the requested one when there are messages for it, else English. */
export function resolveLanguage(requested: unknown): string {
  if (typeof requested !== 'string') return DEFAULT_LANGUAGE;
  const primary = requested.trim().toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(MESSAGES, primary) ? primary : DEFAULT_LANGUAGE;
}

export function messagesFor(language: string): TrackingPageMessages {
  const own = MESSAGES[language] ?? {};
  return { ...en, ...own };
}

/** Fills `{name}` placeholders. */
export function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}
