import { html } from '../html.js';
import { noticeBox, renderConsolePage } from './console-layout.js';

/** The sign-in form: client id and secret, posted to the server (nothing is kept in the browser). */
export function renderSignIn(input: { formToken: string; clientId?: string; error?: string; info?: string }): string {
  const body = html`<h1>Sign in</h1>
${input.error ? noticeBox('alert', input.error) : ''}
${input.info ? noticeBox('info', input.info) : ''}
<form class="card" method="post" action="/console/sign-in/">
<input type="hidden" name="csrf" value="${input.formToken}">
<div class="field"><label for="client_id">Client id</label>
<input id="client_id" name="client_id" autocomplete="username" required maxlength="200" value="${input.clientId ?? ''}" spellcheck="false"></div>
<div class="field"><label for="client_secret">Client secret</label>
<input id="client_secret" name="client_secret" type="password" autocomplete="current-password" required maxlength="200"></div>
<button type="submit">Sign in</button>
</form>
<p class="muted">Use the API credentials of your account (the same pair that obtains an access token). The secret goes to the
server once and is not stored in your browser; the session ends after an hour or when you sign out.</p>`;
  return renderConsolePage({ title: 'Sign in', body, narrow: true });
}
