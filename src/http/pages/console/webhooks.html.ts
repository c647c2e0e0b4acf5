import type { WebhookEndpointsService } from '../../../domain/webhooks/webhook-endpoints.service.js';
import { html } from '../html.js';
import { pill, serviceTime } from './console-format.js';
import { type ConsoleSession, noticeBox, renderConsolePage } from './console-layout.js';

type Endpoint = Awaited<ReturnType<WebhookEndpointsService['get']>>;
type Attempt = Awaited<ReturnType<WebhookEndpointsService['deliveryLog']>>[number];

function endpointState(endpoint: Endpoint) {
  if (!endpoint.enabled) return pill('disabled', 'alert');
  return endpoint.failing_since ? pill('failing', 'alert') : pill('enabled', 'ok');
}

export function renderWebhookList(input: { session: ConsoleSession; endpoints: Endpoint[] }): string {
  const body = html`<h1>Webhooks</h1>
${
  input.endpoints.length === 0
    ? noticeBox('info', 'No webhook endpoints.', ['Register one with POST /v5/webhooks/; its deliveries will show here.'])
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Webhook endpoints</caption>
<thead><tr><th scope="col">Endpoint</th><th scope="col">State</th><th scope="col">Events</th><th scope="col">Format</th><th scope="col">Created</th><th scope="col">Delivery log</th></tr></thead>
<tbody>
${input.endpoints.map(
  (endpoint) => html`<tr><td><code>${endpoint.url}</code></td><td>${endpointState(endpoint)}${
    endpoint.disabled_reason ? html`<br><span class="muted">${endpoint.disabled_reason}</span>` : ''
  }</td><td>${endpoint.events ? endpoint.events.join(', ') : 'all'}</td><td>${endpoint.format}</td><td>${serviceTime(endpoint.created_date)}</td>
<td><a href="/console/webhooks/${endpoint.webhook_uuid}/">Deliveries</a></td></tr>
`,
)}</tbody></table></div>`
}`;
  return renderConsolePage({ title: 'Webhooks', body, session: input.session, section: 'webhooks' });
}

function attemptRow(attempt: Attempt) {
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return html`<tr><td>${serviceTime(attempt.attempted_date)}</td><td>${attempt.type}</td><td><code>${attempt.event_id}</code></td>
<td>${attempt.status_code === null ? pill('no answer', 'alert') : pill(String(attempt.status_code), ok ? 'ok' : 'alert')}</td>
<td>${attempt.latency_ms === null ? '–' : `${attempt.latency_ms} ms`}</td><td>${attempt.error ?? ''}</td><td>${pill(attempt.delivery_status)}</td></tr>
`;
}

export function renderDeliveryLog(input: { session: ConsoleSession; endpoint: Endpoint; attempts: Attempt[] }): string {
  const { endpoint } = input;
  const body = html`<p><a href="/console/webhooks/">← Webhooks</a></p>
<h1>Delivery log</h1>
<p><code>${endpoint.url}</code> ${endpointState(endpoint)}</p>
${
  input.attempts.length === 0
    ? noticeBox('info', 'No delivery attempts yet.')
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">The latest 100 delivery attempts, newest first</caption>
<thead><tr><th scope="col">Attempted</th><th scope="col">Event</th><th scope="col">Event id</th><th scope="col">Answer</th><th scope="col">Latency</th><th scope="col">Error</th><th scope="col">Delivery</th></tr></thead>
<tbody>
${input.attempts.map(attemptRow)}</tbody></table></div>`
}`;
  return renderConsolePage({ title: 'Delivery log', body, session: input.session, section: 'webhooks' });
}
