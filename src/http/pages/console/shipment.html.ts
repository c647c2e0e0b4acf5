import { html, type SafeHtml } from '../html.js';
import { eventTime, pill, serviceTime } from './console-format.js';
import { type ConsoleSession, renderConsolePage } from './console-layout.js';
import { CHANNEL_LABELS, TRIGGER_LABELS } from './notification-settings.html.js';

type Json = Record<string, any>;

export interface ConsoleDocument {
  document_uuid: string;
  document_id: string | null;
  name: string | null;
  type: string;
  file_format: string;
  created_date: string;
  /** The signed download link as a path, or null while the file is being made. */
  download_path: string | null;
}

function fact(label: string, value: SafeHtml | string | null | undefined): SafeHtml {
  if (value === null || value === undefined || value === '') return html``;
  return html`<dt>${label}</dt><dd>${value}</dd>`;
}

function place(address: Json | null): string | null {
  if (!address) return null;
  return [address.postal_code, address.city, address.country_code ?? address.country].filter(Boolean).join(' ') || null;
}

function expected(window: Json | null): SafeHtml | null {
  if (!window || (!window.from && !window.to)) return null;
  if (window.from && window.to && window.from !== window.to) return html`${eventTime(window.from, null)} – ${eventTime(window.to, null)}`;
  return eventTime(window.from ?? window.to, null);
}

function documentsCard(documents: ConsoleDocument[]): SafeHtml {
  return html`<section class="card" aria-labelledby="documents-heading">
<h2 id="documents-heading">Documents</h2>
${
  documents.length === 0
    ? html`<p class="muted">No documents. A label appears here when the shipment is booked with a carrier.</p>`
    : html`<ul class="plain">${documents.map(
        (doc) =>
          html`<li data-document-type="${doc.type}"><strong>${doc.name ?? doc.type}</strong> <span class="muted">(${doc.type}, ${doc.file_format.toUpperCase()}, ${serviceTime(doc.created_date)})</span><br>${
            doc.download_path
              ? html`<a href="${doc.download_path}" download>Download ${doc.type === 'label' ? 'label' : 'document'} (${doc.file_format.toUpperCase()})</a>`
              : html`<span class="muted">Being prepared…</span>`
          }</li>`,
      )}</ul>`
}
</section>`;
}

/** A consumer message of the shipment, as the notification log lists it. */
export interface ConsoleNotification {
  notification_uuid: string;
  trigger: string;
  channel: string;
  recipient: string;
  status: string;
  reason: string | null;
  created_date: string;
  sent_date: string | null;
}

function label(labels: Readonly<Record<string, string>>, key: string): string {
  return Object.hasOwn(labels, key) ? labels[key] : key;
}

const NOTIFICATION_TONE: Record<string, string> = { sent: 'ok', queued: 'info', failed: 'alert', suppressed: 'alert' };

function notificationsCard(entries: ConsoleNotification[], more: boolean): SafeHtml {
  return html`<section class="card" aria-labelledby="notifications-heading">
<h2 id="notifications-heading">Notifications <span class="muted">(messages to the recipient, newest first)</span></h2>
${
  entries.length === 0
    ? html`<p class="muted">No messages. They appear here when a change of this shipment sends an e-mail or SMS (<a href="/console/notifications/">settings</a>).</p>`
    : html`<div class="table-wrap"><table>
<caption class="visually-hidden">Messages to the recipient about this shipment, newest first</caption>
<thead><tr><th scope="col">Trigger</th><th scope="col">Channel</th><th scope="col">Recipient</th><th scope="col">Status</th><th scope="col">Reason</th><th scope="col">Time</th></tr></thead>
<tbody>
${entries.map(
  (
    entry,
  ) => html`<tr data-notification="${entry.notification_uuid}"><td data-trigger="${entry.trigger}">${label(TRIGGER_LABELS, entry.trigger)}</td><td>${label(CHANNEL_LABELS, entry.channel)}</td>
<td><code>${entry.recipient}</code></td><td>${pill(entry.status, NOTIFICATION_TONE[entry.status])}</td><td>${entry.reason ?? html`<span class="muted">–</span>`}</td>
<td>${serviceTime(entry.sent_date ?? entry.created_date)}</td></tr>
`,
)}</tbody></table></div>${more ? html`<p class="muted">Older messages are in the API's notification log.</p>` : ''}`
}
</section>`;
}

function timelineCard(events: Json[]): SafeHtml {
  return html`<section class="card" aria-labelledby="timeline-heading">
<h2 id="timeline-heading">Timeline <span class="muted">(newest first, in local time)</span></h2>
${
  events.length === 0
    ? html`<p class="muted">No tracking events yet.</p>`
    : html`<ol class="timeline">${events.map(
        (event) => html`<li><p class="what">${event.event}${event.phase ? html` <span class="muted">· ${event.phase}</span>` : ''}</p>
<p class="when">${eventTime(event.time, event.timezone)}</p>${event.location?.place ? html`<p class="where">${event.location.place}</p>` : ''}</li>`,
      )}</ol>`
}
</section>`;
}

/** One shipment: its facts, its documents (with label downloads), its timeline and the messages sent about it. */
export function renderShipmentPage(input: {
  session: ConsoleSession;
  shipment: Json;
  documents: ConsoleDocument[];
  notifications: ConsoleNotification[];
  moreNotifications: boolean;
}): string {
  const s = input.shipment;
  const ret = s.returns as Json | null;
  const body = html`<p><a href="/console/shipments/">← Shipments</a></p>
<h1>Shipment ${s.shipment_id}</h1>
<p>${pill(s.status)} ${s.current_phase?.name ? pill(s.current_phase.name, s.current_phase.key === 'exception' ? 'alert' : 'info') : ''}</p>
<div class="grid">
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading">Details</h2>
<dl class="facts">
${fact('Tracking number', s.tracking_number ? html`<code>${s.tracking_number}</code>` : null)}
${fact('Carrier', s.carrier?.name ?? s.carrier_reference)}
${fact('Shipment uuid', html`<code>${s.shipment_uuid}</code>`)}
${fact('Reference', s.shipment_reference)}
${fact('Order', s.order?.order_id)}
${fact('Type', s.shipment_type)}
${fact('Service', s.shipping_service)}
${fact('Expected delivery', expected(s.expected_delivery))}
${fact('Recipient', [place(s.recipient_address)].filter(Boolean).join(''))}
${fact('Tags', (s.tags as string[]).join(', '))}
${fact('Created', serviceTime(s.created_date))}
${fact('Updated', serviceTime(s.updated_date))}
${fact('Tracking page', s.tracking_page_reference ? html`<a href="/t/${s.tracking_page_reference}">/t/${s.tracking_page_reference}</a>` : null)}
${ret ? fact('Return', html`${pill(ret.return_status)} <a href="/console/returns/">Returns</a>`) : ''}
</dl>
</section>
${documentsCard(input.documents)}
</div>
${timelineCard(s.all_events as Json[])}
${notificationsCard(input.notifications, input.moreNotifications)}`;
  return renderConsolePage({ title: `Shipment ${s.shipment_id}`, body, session: input.session, section: 'shipments' });
}
