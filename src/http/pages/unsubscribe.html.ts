import type { Language } from '../../i18n/languages.js';
import { formatMessage } from '../../i18n/messages.js';
import { html } from './html.js';
import { renderPage } from './page-layout.js';

/** The page an unsubscribe link opens: one button, and a choice to stop everything from the merchant. */
export function renderUnsubscribePage(language: Language, merchant: string, action: string): string {
  const t = (key: string) => formatMessage(language, `notification.unsubscribe.${key}`, { merchant });
  return renderPage({
    language,
    title: t('title'),
    body: html`<main id="main">
<h1>${t('title')}</h1>
<form class="card" method="post" action="${action}">
<p><label><input type="checkbox" name="scope" value="merchant"> ${t('all_from_merchant')}</label></p>
<p><button type="submit">${t('confirm_button')}</button></p>
</form>
</main>`,
  });
}

export function renderUnsubscribeDone(language: Language, merchant: string): string {
  const title = formatMessage(language, 'notification.unsubscribe.title', { merchant });
  return renderPage({
    language,
    title,
    body: html`<main id="main"><h1>${title}</h1><p class="card" role="status">${formatMessage(language, 'notification.unsubscribe.done', { merchant })}</p></main>`,
  });
}

export function renderUnsubscribeInvalid(language: Language): string {
  const title = formatMessage(language, 'notification.unsubscribe.title', { merchant: '' });
  return renderPage({
    language,
    title,
    body: html`<main id="main"><h1>${title}</h1><p class="card">${formatMessage(language, 'notification.unsubscribe.invalid', {})}</p></main>`,
  });
}
