import { html } from '../html.js';
import { type ConsoleSession, noticeBox, renderConsolePage } from './console-layout.js';

/** A page that only says what happened: not found, refused, throttled, or an error. */
export function renderMessagePage(input: {
  title: string;
  text: string;
  details?: string[];
  session?: ConsoleSession | null;
  back?: { href: string; label: string };
}): string {
  const body = html`<h1>${input.title}</h1>
${noticeBox('alert', input.text, input.details ?? [])}
<p><a href="${input.back?.href ?? '/console/'}">${input.back?.label ?? 'Back to the console'}</a></p>`;
  return renderConsolePage({ title: input.title, body, session: input.session ?? null });
}
