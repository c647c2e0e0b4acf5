import { showEventTime } from '../../../domain/tracking-page/local-time.js';
import { html, type SafeHtml } from '../html.js';

const LOCALE = 'en-GB';
const utcFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A time the service recorded (UTC), as a `<time>`; a dash when there is none. */
export function serviceTime(iso: string | null | undefined): SafeHtml {
  if (!iso) return html`<span class="muted">–</span>`;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return html`${iso}`;
  return html`<time datetime="${iso}">${utcFormat.format(date)} UTC</time>`;
}

/** A carrier event's time in the local time of the event, as on the tracking page. */
export function eventTime(text: string, timezone: string | null): SafeHtml {
  const shown = showEventTime(text, timezone, LOCALE);
  return html`<time datetime="${shown.machine}">${shown.label}</time>`;
}

const STATUS_TONE: Record<string, string> = {
  delivered: 'ok',
  completed: 'ok',
  approved: 'ok',
  active: 'info',
  shipping: 'info',
  'carrier booking pending': 'info',
  return: 'alert',
  expired: 'alert',
  inactive: 'alert',
  rejected: 'alert',
  exception: 'alert',
  return_to_sender: 'alert',
  failed: 'alert',
};

/** A state word in a coloured pill (the word itself carries the meaning; colour only helps). */
export function pill(value: string | null | undefined, tone?: string): SafeHtml {
  if (!value) return html`<span class="muted">–</span>`;
  const cls = tone ?? STATUS_TONE[value];
  return html`<span class="pill${cls ? ` ${cls}` : ''}">${value}</span>`;
}
