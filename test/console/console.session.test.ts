import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { HousekeepingTask } from '../../src/jobs/housekeeping.task.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { form, formToken, setCookie, signIn, submitSignIn, visibleText } from './console-client.js';

describe('console: sign-in, session and headers', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account();
  });
  afterAll(() => t.close());

  it('signs in with client id and secret: a 303 to the shipments and an HttpOnly, SameSite=Strict session cookie', async () => {
    const res = await submitSignIn(t, acct.clientId, acct.clientSecret);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/shipments/');
    const session = setCookie(res, 'waybill_console');
    expect(session?.value).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    // Sealed: the cookie is no access token, and nobody who copies it can call the API with it.
    expect(session?.value).not.toMatch(/^v1\./);
    expect((await t.call(session!.value, 'GET', '/v5/carrier-configs/')).statusCode).toBe(403);
    expect(session?.attributes).toContain('HttpOnly');
    expect(session?.attributes).toContain('SameSite=Strict');
    expect(session?.attributes).toContain('Path=/console/');
    expect(session?.attributes).toMatch(/Max-Age=3600/);
    // Plain HTTP here: not Secure (browsers would drop it); over HTTPS it is.
    expect(session?.attributes).not.toContain('Secure');
    // The secret is not in any header or page of the answer.
    expect(JSON.stringify(res.headers) + res.body).not.toContain(acct.clientSecret);
    const page = await t.app.inject({
      method: 'GET',
      url: '/console/shipments/',
      headers: { cookie: `waybill_console=${session!.value}` },
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(acct.clientId);
  });

  it('marks the cookie Secure when the request came over HTTPS (behind a trusted proxy)', async () => {
    const proxied = await createTestApp({ env: { WAYBILL_TRUST_PROXY: 'true' } });
    try {
      const other = await proxied.account();
      const page = await proxied.app.inject({ method: 'GET', url: '/console/sign-in/', headers: { 'x-forwarded-proto': 'https' } });
      expect(setCookie(page, 'waybill_console_sign_in')?.attributes).toContain('Secure');
      const res = await proxied.app.inject({
        method: 'POST',
        url: '/console/sign-in/',
        headers: {
          'x-forwarded-proto': 'https',
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `waybill_console_sign_in=${setCookie(page, 'waybill_console_sign_in')!.value}`,
        },
        payload: form({ csrf: formToken(page.body), client_id: other.clientId, client_secret: other.clientSecret }),
      });
      expect(res.statusCode).toBe(303);
      expect(setCookie(res, 'waybill_console')?.attributes).toMatch(/HttpOnly; SameSite=Strict; Secure/);
    } finally {
      await proxied.close();
    }
  });

  it('refuses a wrong secret with the form and a message, and sets no session cookie', async () => {
    const res = await submitSignIn(t, acct.clientId, `${acct.clientSecret}x`);
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(setCookie(res, 'waybill_console')).toBeUndefined();
    expect(visibleText(res.body)).toContain('The client id or secret is not right');
    // The client id stays filled in; the secret is never echoed.
    expect(res.body).toContain(`value="${acct.clientId}"`);
    expect(res.body).not.toContain(`${acct.clientSecret}x`);
    const unknown = await submitSignIn(t, 'no-such-client', 'whatever');
    expect(unknown.statusCode).toBe(401);
    expect(setCookie(unknown, 'waybill_console')).toBeUndefined();
  });

  it('makes a source that keeps guessing wait, and still signs the owner in from elsewhere', async () => {
    const owner = await t.account();
    const signInFrom = async (remoteAddress: string, secret: string) => {
      const page = await t.app.inject({ method: 'GET', url: '/console/sign-in/', remoteAddress });
      return t.app.inject({
        method: 'POST',
        url: '/console/sign-in/',
        remoteAddress,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          cookie: `waybill_console_sign_in=${setCookie(page, 'waybill_console_sign_in')!.value}`,
        },
        payload: form({ csrf: formToken(page.body), client_id: owner.clientId, client_secret: secret }),
      });
    };
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) statuses.push((await signInFrom('203.0.113.9', `wbs_guess_${i}`)).statusCode);
    const signedIn = await signInFrom('198.51.100.30', owner.clientSecret);
    expect(signedIn.statusCode).toBe(303);
    expect(setCookie(signedIn, 'waybill_console')?.value).toBeTruthy();
    expect(statuses.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(new Set(statuses.slice(6))).toEqual(new Set([429]));
    const waiting = await signInFrom('203.0.113.9', owner.clientSecret);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('1');
    expect(visibleText(waiting.body)).toContain('Too many attempts');
    // The console and the token endpoint keep one record: the same source waits there too.
    const token = await t.app.inject({
      method: 'POST',
      url: '/auth/oauth/token/',
      remoteAddress: '203.0.113.9',
      headers: {
        authorization: `Basic ${Buffer.from(`${owner.clientId}:${owner.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: 'grant_type=client_credentials',
    });
    expect(token.statusCode).toBe(429);
  });

  it('refuses a sign-in form that did not come from the console (no form cookie, or a different token)', async () => {
    const noCookie = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in/',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf: 'x', client_id: acct.clientId, client_secret: acct.clientSecret }),
    });
    expect(noCookie.statusCode).toBe(403);
    expect(setCookie(noCookie, 'waybill_console')).toBeUndefined();
    const mismatched = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: 'waybill_console_sign_in=abc' },
      payload: form({ csrf: 'abd', client_id: acct.clientId, client_secret: acct.clientSecret }),
    });
    expect(mismatched.statusCode).toBe(403);
    expect(setCookie(mismatched, 'waybill_console')).toBeUndefined();
  });

  it('answers empty or unprintable credentials with the form, not an error', async () => {
    for (const [id, secret] of [
      ['', ''],
      [acct.clientId, ''],
      ['a\u0001b', 'c'],
      ['x'.repeat(201), 'y'],
    ]) {
      const res = await submitSignIn(t, id, secret);
      expect(res.statusCode).toBe(400);
      expect(visibleText(res.body)).toContain('Enter your client id and client secret');
      expect(setCookie(res, 'waybill_console')).toBeUndefined();
    }
    // NUL is refused before any route, as everywhere in the service: a page naming the field.
    const nul = await submitSignIn(t, 'a\u0000b', 'c');
    expect(nul.statusCode).toBe(400);
    expect(visibleText(nul.body)).toContain('client_id: Must not contain the NUL character.');
    expect(setCookie(nul, 'waybill_console')).toBeUndefined();
  });

  it('sends every signed-in page back to sign-in without a session, or with a forged or expired one', async () => {
    for (const path of ['/console/', '/console/shipments/', '/console/returns/', '/console/webhooks/', '/console/shipments/x/']) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(303);
      expect(res.headers.location).toBe('/console/sign-in/');
    }
    const forged = await t.app.inject({
      method: 'GET',
      url: '/console/shipments/',
      headers: { cookie: `waybill_console=${acct.token.slice(0, -2)}xx` },
    });
    expect(forged.statusCode).toBe(303);
    expect(forged.headers.location).toBe('/console/sign-in/?reason=expired');
    expect(setCookie(forged, 'waybill_console')?.attributes).toContain('Max-Age=0');
    const post = await t.app.inject({ method: 'POST', url: '/console/sign-out/', payload: form({ csrf: 'x' }) });
    expect(post.statusCode).toBe(303);

    const browser = await signIn(t, acct);
    t.clock.advance(61 * 60_000);
    const expired = await browser.get('/console/shipments/');
    expect(expired.statusCode).toBe(303);
    expect(expired.headers.location).toBe('/console/sign-in/?reason=expired');
    const again = await t.app.inject({ method: 'GET', url: '/console/sign-in/?reason=expired' });
    expect(visibleText(again.body)).toContain('Your session has ended. Sign in again.');
  });

  it('ends the session when the credentials are revoked', async () => {
    const other = await t.account();
    const browser = await signIn(t, other);
    expect((await browser.get('/console/shipments/')).statusCode).toBe(200);
    const revoked = await t.admin('DELETE', `/admin/v1/accounts/${other.accountUuid}/credentials/${other.clientId}/`);
    expect(revoked.statusCode, revoked.body).toBeLessThan(300);
    expect((await browser.get('/console/shipments/')).statusCode).toBe(303);
  });

  it('ends the session on the server when signing out: the old cookie is refused everywhere', async () => {
    const browser = await signIn(t, acct);
    const second = await buildApp(t.context, { logger: false });
    try {
      await second.ready();
      // Another API process over the same database accepts the session before the sign-out…
      expect((await second.inject({ method: 'GET', url: '/console/shipments/', headers: { cookie: browser.cookie } })).statusCode).toBe(
        200,
      );
      const out = await browser.post('/console/sign-out/', {});
      expect(out.statusCode).toBe(303);
      // …and neither process accepts it after, for pages, forms or the sign-in page's shortcut.
      for (const app of [t.app, second]) {
        const page = await app.inject({ method: 'GET', url: '/console/shipments/', headers: { cookie: browser.cookie } });
        expect(page.statusCode).toBe(303);
        expect(page.headers.location).toBe('/console/sign-in/?reason=expired');
        expect(setCookie(page, 'waybill_console')?.attributes).toContain('Max-Age=0');
        const signInPage = await app.inject({ method: 'GET', url: '/console/sign-in/', headers: { cookie: browser.cookie } });
        expect(signInPage.statusCode).toBe(200);
      }
      const replayed = await browser.post('/console/sign-out/', {});
      expect(replayed.statusCode).toBe(303);
      expect(replayed.headers.location).toBe('/console/sign-in/?reason=expired');
      // Signing in again starts a new session that works.
      const again = await signIn(t, acct);
      expect((await again.get('/console/shipments/')).statusCode).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('forgets a sign-out once the session would have expired anyway', async () => {
    const other = await t.account();
    const browser = await signIn(t, other);
    await browser.post('/console/sign-out/', {});
    const revocations = () =>
      t.context.repos.db
        .selectFrom('console_session_revocations')
        .innerJoin('accounts', 'accounts.id', 'console_session_revocations.account_id')
        .select('session_hash')
        .where('accounts.account_uuid', '=', other.accountUuid)
        .execute();
    expect(await revocations()).toHaveLength(1);
    t.clock.advance(61 * 60_000);
    await new HousekeepingTask(t.context.repos, t.clock).runOnce();
    expect(await revocations()).toHaveLength(0);
    expect((await browser.get('/console/shipments/')).statusCode).toBe(303);
  });

  it('refuses a form sent from another site even with a valid form token', async () => {
    const browser = await signIn(t, acct);
    const post = (headers: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/console/sign-out/',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookie, ...headers },
        payload: form({ csrf: browser.csrf }),
      });
    const crossSite: Record<string, string>[] = [
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      { origin: 'https://evil.example' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site' },
      { origin: 'https://waybill.test.evil.example', 'sec-fetch-site': 'same-origin' },
    ];
    for (const headers of crossSite) {
      const res = await post(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(visibleText(res.body)).toContain('This form was sent from another site');
      expect(setCookie(res, 'waybill_console')).toBeUndefined();
    }
    // The session is untouched by the refused forms.
    expect((await browser.get('/console/shipments/')).statusCode).toBe(200);
    const crossSiteSignIn = await t.app.inject({
      method: 'POST',
      url: '/console/sign-in/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      payload: form({ csrf: 'x', client_id: acct.clientId, client_secret: acct.clientSecret }),
    });
    expect(crossSiteSignIn.statusCode).toBe(403);
    expect(visibleText(crossSiteSignIn.body)).toContain('This form was sent from another site');
  });

  it.each([
    ['the public URL as Origin', { origin: 'https://waybill.test', 'sec-fetch-site': 'same-origin' }],
    ['the request’s own host as Origin', { origin: 'http://console.internal:8080', host: 'console.internal:8080' }],
    ['Origin null (the console’s no-referrer policy)', { origin: 'null', 'sec-fetch-site': 'same-origin' }],
    ['a user-initiated request', { 'sec-fetch-site': 'none' }],
    ['neither header (curl, older browsers)', {}],
  ])('accepts a form from the same origin: %s', async (_name, headers) => {
    const browser = await signIn(t, acct);
    const res = await t.app.inject({
      method: 'POST',
      url: '/console/sign-out/',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: browser.cookie, ...headers },
      payload: form({ csrf: browser.csrf }),
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/sign-in/?reason=signed-out');
  });

  it('signs out with the session’s form token: the cookie is cleared', async () => {
    const browser = await signIn(t, acct);
    const refused = await browser.post('/console/sign-out/', {}, { withToken: false });
    expect(refused.statusCode).toBe(403);
    expect(visibleText(refused.body)).toContain('Form refused');
    const res = await browser.post('/console/sign-out/', {});
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/console/sign-in/?reason=signed-out');
    expect(setCookie(res, 'waybill_console')?.attributes).toContain('Max-Age=0');
  });

  it('sends the security headers on every console response, signed in or not, found or not', async () => {
    const browser = await signIn(t, acct);
    const responses = [
      await t.app.inject({ method: 'GET', url: '/console/sign-in/' }),
      await t.app.inject({ method: 'GET', url: '/console/shipments/' }),
      await browser.get('/console/shipments/'),
      await browser.get('/console/returns/'),
      await browser.get('/console/webhooks/'),
      await browser.get('/console/nowhere/'),
      await browser.get(`/console/shipments/${crypto.randomUUID()}/`),
    ];
    for (const res of responses) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(responses[5].statusCode).toBe(404);
    expect(responses[6].statusCode).toBe(404);
    // No script anywhere; the one stylesheet is a file of the console.
    for (const res of responses) expect(res.body).not.toMatch(/<script|\son[a-z]+=/i);
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec(responses[2].body)![1];
    const css = await t.app.inject({ method: 'GET', url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['x-content-type-options']).toBe('nosniff');
  });

  it('counts console pages against the account’s rate limit, as the API does', async () => {
    const limited = await createTestApp({ env: { WAYBILL_RATE_LIMIT_PER_SECOND: '3' } });
    try {
      const other = await limited.account();
      limited.clock.advance(1_000);
      const browser = await signIn(limited, other);
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await browser.get('/console/webhooks/')).statusCode);
      expect(statuses).toContain(429);
      const page = await browser.get('/console/webhooks/');
      expect(page.statusCode).toBe(429);
      expect(page.headers['retry-after']).toBeDefined();
      expect(visibleText(page.body)).toContain('Too many requests');
      limited.clock.advance(1_000);
      expect((await browser.get('/console/webhooks/')).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
