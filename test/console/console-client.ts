import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestAccount, TestApp } from '../helpers/app.js';

/** The named cookie's value from a response's Set-Cookie headers (undefined when not set). */
export function setCookie(res: LightMyRequestResponse, name: string): { value: string; attributes: string } | undefined {
  const raw = res.headers['set-cookie'];
  const all = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
  for (const line of all) {
    const [pair, ...attributes] = line.split(';');
    const eq = pair.indexOf('=');
    if (pair.slice(0, eq).trim() === name) return { value: pair.slice(eq + 1), attributes: attributes.join(';') };
  }
  return undefined;
}

export function formToken(page: string): string {
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match) throw new Error('no form token on the page');
  return match[1];
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** A signed-in console session driven through app.inject: GET and POST with its cookie and form token. */
export interface ConsoleBrowser {
  cookie: string;
  csrf: string;
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, fields: Record<string, string>, options?: { withToken?: boolean }): Promise<LightMyRequestResponse>;
}

/** Opens the sign-in form and posts the credentials as a browser would. */
export async function submitSignIn(t: TestApp, clientId: string, clientSecret: string): Promise<LightMyRequestResponse> {
  const page = await t.app.inject({ method: 'GET', url: '/console/sign-in/' });
  expect(page.statusCode).toBe(200);
  const formCookie = setCookie(page, 'waybill_console_sign_in');
  expect(formCookie).toBeDefined();
  return t.app.inject({
    method: 'POST',
    url: '/console/sign-in/',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `waybill_console_sign_in=${formCookie!.value}` },
    payload: form({ csrf: formToken(page.body), client_id: clientId, client_secret: clientSecret }),
  });
}

export async function signIn(t: TestApp, account: TestAccount): Promise<ConsoleBrowser> {
  const res = await submitSignIn(t, account.clientId, account.clientSecret);
  expect(res.statusCode, res.body).toBe(303);
  const session = setCookie(res, 'waybill_console');
  expect(session?.value).toBeTruthy();
  const cookie = `waybill_console=${session!.value}`;
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const first = await get('/console/shipments/');
  const csrf = formToken(first.body);
  return {
    cookie,
    csrf,
    get,
    post: (url, fields, options = {}) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        payload: form(options.withToken === false ? fields : { csrf, ...fields }),
      }),
  };
}

/** Text of the page without tags, whitespace collapsed (what a reader sees). */
export function visibleText(page: string): string {
  return page
    .replace(/<style[\s\S]*?<\/style>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
}
