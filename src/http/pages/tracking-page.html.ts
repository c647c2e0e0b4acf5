import type { TrackingPageMessages } from '../../domain/tracking-page/tracking-page.messages.js';
import type { TrackingPageView } from '../../domain/tracking-page/tracking-page.view.js';
import { html, type SafeHtml } from './html.js';
import { renderPage } from './page-layout.js';

function header(messages: TrackingPageMessages): SafeHtml {
  return html`<a class="skip" href="#main">${messages.skipLink}</a>
<header><p>${messages.pageTitle}</p></header>`;
}

/** The public tracking page of one shipment. Every value is escaped; there is no script. */
export function renderTrackingPage(view: TrackingPageView): string {
  const m = view.messages;
  const alert = view.notice !== null && (view.notice.kind === 'exception' || view.notice.kind === 'return_to_sender');
  const stateText = { done: m.stepDone, current: m.stepCurrent, upcoming: m.stepUpcoming };
  const body = html`${header(m)}
<main id="main" tabindex="-1">
<h1>${m.heading}</h1>
<section class="card" aria-labelledby="status-heading">
<h2 id="status-heading">${m.currentStatus}</h2>
<p class="status${alert ? ' alert' : ''}" data-phase="${view.phase.key ?? 'none'}">${view.phase.label}</p>
<ol class="progress${alert ? ' alert' : ''}" aria-label="${m.progressLabel}">
${view.steps.map(
  (step) =>
    html`<li class="${step.state}" data-step="${step.key}"${step.state === 'current' ? html` aria-current="step"` : ''}>${step.label}<span class="visually-hidden"> (${stateText[step.state]})</span></li>
`,
)}</ol>
${view.notice ? html`<p class="notice${alert ? '' : ' info'}" role="status">${view.notice.text}</p>` : ''}
</section>
<section class="card" aria-labelledby="facts-heading">
<h2 id="facts-heading" class="visually-hidden">${m.trackingNumber}</h2>
<dl class="facts">
${view.trackingNumber ? html`<dt>${m.trackingNumber}</dt><dd>${view.trackingNumber}</dd>` : ''}
${view.carrierName ? html`<dt>${m.carrier}</dt><dd>${view.carrierName}</dd>` : ''}
${
  view.expectedDelivery
    ? html`<dt>${m.expectedDelivery}</dt><dd data-expected-delivery>${
        view.expectedDelivery.from && view.expectedDelivery.to && view.expectedDelivery.from.label !== view.expectedDelivery.to.label
          ? html`<time datetime="${view.expectedDelivery.from.machine}">${view.expectedDelivery.from.label}</time> – <time datetime="${view.expectedDelivery.to.machine}">${view.expectedDelivery.to.label}</time>`
          : html`<time datetime="${(view.expectedDelivery.from ?? view.expectedDelivery.to)!.machine}">${view.expectedDelivery.label}</time>`
      }</dd>`
    : ''
}
</dl>
</section>
<section class="card" aria-labelledby="timeline-heading">
<h2 id="timeline-heading">${m.timeline}</h2>
${
  view.events.length === 0
    ? html`<p>${m.noEvents}</p>`
    : html`<ol class="timeline">
${view.events.map(
  (
    event,
  ) => html`<li><p class="what">${event.description}</p><p class="when"><time datetime="${event.time.machine}">${event.time.label}</time></p>${
    event.place ? html`<p class="where">${event.place}</p>` : ''
  }</li>
`,
)}</ol>`
}
</section>
</main>
<footer><p>${m.footer}</p></footer>`;
  return renderPage({ language: view.language, title: `${m.pageTitle} – ${view.phase.label}`, body });
}

/** The page for a reference no shipment has. */
export function renderTrackingNotFound(messages: TrackingPageMessages): string {
  const body = html`${header(messages)}
<main id="main" tabindex="-1">
<h1>${messages.notFoundTitle}</h1>
<p>${messages.notFoundText}</p>
</main>`;
  return renderPage({ language: messages.language, title: messages.notFoundTitle, body });
}
