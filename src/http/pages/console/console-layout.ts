import { html, type SafeHtml } from '../html.js';
import { CONSOLE_CSS_PATH } from './console-styles.js';

export type ConsoleSection = 'shipments' | 'returns' | 'return-policy' | 'webhooks' | 'notifications' | 'analytics';

/** What every signed-in page knows: the session's form token and the account's client id. */
export interface ConsoleSession {
  csrf: string;
  clientId: string;
}

const SECTIONS: Array<[ConsoleSection, string, string]> = [
  ['shipments', 'Shipments', '/console/shipments/'],
  ['returns', 'Returns', '/console/returns/'],
  ['return-policy', 'Returns policy', '/console/returns/policy/'],
  ['webhooks', 'Webhooks', '/console/webhooks/'],
  ['notifications', 'Notifications', '/console/notifications/'],
  ['analytics', 'Analytics', '/console/analytics/'],
];

/** The hidden field every state-changing form carries. */
export function csrfField(session: ConsoleSession): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${session.csrf}">`;
}

function bar(session: ConsoleSession | null, section: ConsoleSection | null): SafeHtml {
  return html`<header class="bar"><div class="bar-inner">
<a class="brand" href="/console/">Waybill console</a>
${
  session
    ? html`<nav aria-label="Console"><ul>
${SECTIONS.map(([key, label, href]) => html`<li><a href="${href}"${key === section ? html` aria-current="page"` : ''}>${label}</a></li>`)}
</ul></nav>
<span class="visually-hidden">Signed in as </span><span title="Client id">${session.clientId}</span>
<form method="post" action="/console/sign-out/">${csrfField(session)}<button type="submit">Sign out</button></form>`
    : ''
}
</div></header>`;
}

/** A whole console page: one stylesheet file, no script. */
export function renderConsolePage(input: {
  title: string;
  body: SafeHtml;
  session?: ConsoleSession | null;
  section?: ConsoleSection | null;
  narrow?: boolean;
}): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${input.title} – Waybill console</title>
<link rel="stylesheet" href="${CONSOLE_CSS_PATH}">
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${bar(input.session ?? null, input.section ?? null)}
<main id="main" tabindex="-1"${input.narrow ? html` class="narrow"` : ''}>
${input.body}
</main>
</body>
</html>
`.value;
}

/** A list of messages (field errors or a refusal) in a notice box. */
export function noticeBox(kind: 'alert' | 'info' | 'ok', title: string, messages: string[] = []): SafeHtml {
  const cls = kind === 'alert' ? 'notice' : `notice ${kind}`;
  return html`<div class="${cls}" role="${kind === 'alert' ? 'alert' : 'status'}"><strong>${title}</strong>${
    messages.length ? html`<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>` : ''
  }</div>`;
}
