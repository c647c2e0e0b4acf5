import { PHASE_KEYS, type PhaseKey } from '../../carriers/phases.js';
import { type Language, LOCALES, normaliseLanguage } from '../../i18n/languages.js';
import { formatMessage } from '../../i18n/messages.js';

/**
 * The words of the public tracking page in one language, from the `tracking_page.*` messages of
 * src/i18n (a key a language lacks is in English).
 */
export interface TrackingPageMessages {
  /** The locale dates and times are written in. */
  locale: string;
  skipLink: string;
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
  phases: Record<PhaseKey, string>;
  noInformation: string;
  expectedDelivery: string;
  /** An expected delivery on one day (or by one time). */
  expectedOn: (date: string) => string;
  /** An expected delivery between two days or times. */
  expectedBetween: (from: string, to: string) => string;
  timeline: string;
  noEvents: string;
  notices: Record<'exception' | 'return_to_sender' | 'failed_attempt' | 'available_for_pickup', string>;
  notFoundTitle: string;
  notFoundText: string;
  footer: string;
  /** The language the words are in. */
  language: Language;
}

/** The language of a `?lang=` value: the first value naming a supported language (`de`, `de-AT`), else null. */
export function requestedLanguage(requested: unknown): Language | null {
  const values = Array.isArray(requested) ? requested : [requested];
  for (const value of values) {
    const language = typeof value === 'string' ? normaliseLanguage(value) : null;
    if (language) return language;
  }
  return null;
}

const built = new Map<Language, TrackingPageMessages>();

function build(language: Language): TrackingPageMessages {
  const t = (key: string, values?: Record<string, string>) => formatMessage(language, `tracking_page.${key}`, values);
  const phases = Object.fromEntries(PHASE_KEYS.map((phase) => [phase, t(`phase.${phase}`)])) as Record<PhaseKey, string>;
  return {
    language,
    locale: LOCALES[language],
    skipLink: t('skip_link'),
    pageTitle: t('page_title'),
    heading: t('heading'),
    trackingNumber: t('tracking_number'),
    carrier: t('carrier'),
    currentStatus: t('current_status'),
    progressLabel: t('progress_label'),
    stepDone: t('step_done'),
    stepCurrent: t('step_current'),
    stepUpcoming: t('step_upcoming'),
    steps: {
      info_received: phases.info_received,
      in_transit: phases.in_transit,
      out_for_delivery: phases.out_for_delivery,
      delivered: phases.delivered,
    },
    phases,
    noInformation: t('no_information'),
    expectedDelivery: t('expected_delivery'),
    expectedOn: (date) => t('expected_on', { date }),
    expectedBetween: (from, to) => t('expected_between', { from, to }),
    timeline: t('timeline'),
    noEvents: t('no_events'),
    notices: {
      exception: t('notice.exception'),
      return_to_sender: t('notice.return_to_sender'),
      failed_attempt: t('notice.failed_attempt'),
      available_for_pickup: t('notice.available_for_pickup'),
    },
    notFoundTitle: t('not_found_title'),
    notFoundText: t('not_found_text'),
    footer: t('footer'),
  };
}

/** The page's words in `language` (built once per language). */
export function messagesFor(language: Language): TrackingPageMessages {
  let messages = built.get(language);
  if (!messages) {
    messages = build(language);
    built.set(language, messages);
  }
  return messages;
}
