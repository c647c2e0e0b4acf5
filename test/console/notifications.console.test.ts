import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { type ConsoleBrowser, signIn, visibleText } from './console-client.js';

const FRAME_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'self'; sandbox";
const TWILIO_SID = `AC${'a1'.repeat(16)}`;
const TWILIO_TOKEN = 'tw-secret-token-1234';

/**
 * The console's notification pages through fastify.inject: the settings form, the template editor with its
 * framed preview, and the messages listed on a shipment's page. SMTP is configured (nothing is sent: no test
 * here makes the worker run) so that e-mail is available.
 */
describe('console: notifications', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let browser: ConsoleBrowser;
  let theirs: ConsoleBrowser;

  beforeAll(async () => {
    t = await createTestApp({
      env: { WAYBILL_SMTP_URL: 'smtp://localhost:2525', WAYBILL_SMTP_FROM: 'Parcel updates <updates@waybill.test>' },
    });
    acct = await t.account();
    other = await t.account();
    browser = await signIn(t, acct);
    theirs = await signIn(t, other);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Posts a form whose fields may repeat (a group of checkboxes), with the session's token unless left out. */
  const postForm = (who: ConsoleBrowser, url: string, pairs: Array<[string, string]>, withToken = true) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: who.cookie },
      payload: new URLSearchParams(withToken ? [['csrf', who.csrf], ...pairs] : pairs).toString(),
    });

  const settingsForm = (overrides: Record<string, string> = {}, triggers: { email?: string[]; sms?: string[] } = {}) => {
    const fields: Record<string, string> = {
      email_enabled: 'on',
      sender_name: 'Nordlicht Books',
      sender_email: 'shop@nordlicht.example',
      reply_to: 'help@nordlicht.example',
      sms_provider: '',
      twilio_account_sid: '',
      twilio_auth_token: '',
      twilio_from: '',
      twilio_messaging_service_sid: '',
      default_language: 'de',
      max_event_age_hours: '24',
      ...overrides,
    };
    const pairs: Array<[string, string]> = Object.entries(fields).filter(([, value]) => value !== 'off');
    for (const trigger of triggers.email ?? ['out_for_delivery', 'delivered']) pairs.push(['email_triggers', trigger]);
    for (const trigger of triggers.sms ?? []) pairs.push(['sms_triggers', trigger]);
    return pairs;
  };

  const apiSettings = async (account: TestAccount) => (await t.as(account)('GET', '/v5/notification/settings/')).json().data;
  const apiTemplate = async (account: TestAccount, path: string) =>
    (await t.as(account)('GET', `/v5/notification/templates/${path}`)).json().data;

  /** The markup from a field's input to the end of its `.field` block. */
  const fieldBlock = (page: string, id: string) => {
    const start = page.indexOf(`id="${id}"`);
    expect(start, `no field ${id}`).toBeGreaterThan(-1);
    return page.slice(start, page.indexOf('</div>', start));
  };

  it('shows the settings with a checkbox per trigger and channel, and is in the console’s navigation', async () => {
    const page = await browser.get('/console/notifications/');
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).not.toContain('frame-src');
    expect(page.body).toContain('href="/console/notifications/" aria-current="page"');
    for (const trigger of ['info_received', 'delivered', 'return_received']) {
      expect(page.body).toContain(`id="email_trigger_${trigger}"`);
      expect(page.body).toContain(`id="sms_trigger_${trigger}"`);
    }
    // The defaults: e-mail on (SMTP is configured) for the default triggers, no SMS.
    expect(page.body).toMatch(/id="email_enabled" name="email_enabled" value="on" checked/);
    expect(page.body).toMatch(/id="email_trigger_delivered" name="email_triggers" value="delivered" checked/);
    expect(page.body).not.toMatch(/id="email_trigger_in_transit" name="email_triggers" value="in_transit" checked/);
    expect(page.body).not.toMatch(/id="sms_enabled" name="sms_enabled" value="on" checked/);
    expect(visibleText(page.body)).not.toContain('E-mail is not available');
    const shipments = await browser.get('/console/shipments/');
    expect(shipments.body).toContain('href="/console/notifications/">Notifications</a>');
  });

  it('saves the settings form, and shows what was saved', async () => {
    const res = await postForm(browser, '/console/notifications/', settingsForm());
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/console/notifications/?saved=1');
    expect(await apiSettings(acct)).toMatchObject({
      email: {
        enabled: true,
        triggers: ['out_for_delivery', 'delivered'],
        sender_name: 'Nordlicht Books',
        sender_email: 'shop@nordlicht.example',
        reply_to: 'help@nordlicht.example',
      },
      sms: { enabled: false, triggers: [], provider: null },
      default_language: 'de',
      max_event_age_hours: 24,
    });
    const page = await browser.get('/console/notifications/?saved=1');
    expect(visibleText(page.body)).toContain('Settings saved.');
    expect(page.body).toMatch(/id="email_trigger_out_for_delivery" name="email_triggers" value="out_for_delivery" checked/);
    expect(page.body).not.toMatch(/id="email_trigger_exception" name="email_triggers" value="exception" checked/);
    expect(page.body).toContain('value="shop@nordlicht.example"');
    expect(page.body).toMatch(/<option value="de" selected>German<\/option>/);
    expect(page.body).toContain('value="24"');
  });

  it('shows each problem next to its field, keeps what was typed, and saves nothing', async () => {
    const before = await apiSettings(acct);
    const res = await postForm(
      browser,
      '/console/notifications/',
      settingsForm(
        { sender_email: 'not an address', max_event_age_hours: '9999', sender_name: 'Changed' },
        { email: ['delivered', 'nope'] },
      ),
    );
    expect(res.statusCode).toBe(400);
    const text = visibleText(res.body);
    expect(text).toContain('The settings were not saved.');
    expect(text).toContain('Sender e-mail: Enter an e-mail address');
    const sender = fieldBlock(res.body, 'sender_email');
    expect(sender).toContain('value="not an address"');
    expect(sender).toContain('aria-invalid="true" aria-describedby="sender_email-problem"');
    expect(sender).toMatch(/<p class="notice" id="sender_email-problem">Enter an e-mail address/);
    expect(fieldBlock(res.body, 'max_event_age_hours')).toMatch(/id="max_event_age_hours-problem">Must be at most 720 hours/);
    expect(res.body).toMatch(/id="email_triggers-problem">Must be among:/);
    expect(await apiSettings(acct)).toEqual(before);

    // The service's own checks (here: the Twilio settings) land on their fields too.
    const sms = await postForm(
      browser,
      '/console/notifications/',
      settingsForm(
        { sms_enabled: 'on', sms_provider: 'twilio', twilio_account_sid: 'AC123', twilio_auth_token: TWILIO_TOKEN },
        { sms: ['delivered'] },
      ),
    );
    expect(sms.statusCode).toBe(400);
    expect(fieldBlock(sms.body, 'twilio_account_sid')).toMatch(
      /id="twilio_account_sid-problem">Must be AC followed by 32 hexadecimal digits\./,
    );
    expect(fieldBlock(sms.body, 'twilio_from')).toMatch(/id="twilio_from-problem">Enter a sender number, or a messaging service SID\./);
    expect(sms.body).not.toContain(TWILIO_TOKEN);
    expect(await apiSettings(acct)).toEqual(before);
  });

  it('keeps the Twilio auth token unless a new one is typed, and never shows it', async () => {
    const twilio = { sms_enabled: 'on', sms_provider: 'twilio', twilio_account_sid: TWILIO_SID, twilio_from: '+4915112345678' };
    const first = await postForm(
      browser,
      '/console/notifications/',
      settingsForm({ ...twilio, twilio_auth_token: TWILIO_TOKEN }, { sms: ['delivered'] }),
    );
    expect(first.statusCode, first.body).toBe(303);
    const page = await browser.get('/console/notifications/');
    expect(page.body).not.toContain(TWILIO_TOKEN);
    expect(page.body).not.toContain('********');
    expect(fieldBlock(page.body, 'twilio_auth_token-hint')).toContain('>set<');
    expect(page.body).toContain(`value="${TWILIO_SID}"`);

    const again = await postForm(
      browser,
      '/console/notifications/',
      settingsForm({ ...twilio, twilio_auth_token: '' }, { sms: ['delivered', 'failed_attempt'] }),
    );
    expect(again.statusCode, again.body).toBe(303);
    const stored = await t.context.notificationSettings.of((await t.context.repos.accounts.findByUuid(acct.accountUuid))!.id);
    expect(stored.sms).toMatchObject({ enabled: true, provider: 'twilio', triggers: ['delivered', 'failed_attempt'] });
    expect(stored.sms.settings).toMatchObject({ account_sid: TWILIO_SID, auth_token: TWILIO_TOKEN, from: '+4915112345678' });

    // No provider: SMS off, and the Twilio settings are gone.
    const none = await postForm(browser, '/console/notifications/', settingsForm());
    expect(none.statusCode, none.body).toBe(303);
    expect((await apiSettings(acct)).sms).toMatchObject({ enabled: false, provider: null, settings: {} });
    expect(fieldBlock((await browser.get('/console/notifications/')).body, 'twilio_auth_token-hint')).toContain('>not set<');
  });

  it('refuses a settings form without the session’s token', async () => {
    const res = await postForm(browser, '/console/notifications/', settingsForm({ sender_name: 'Forged' }), false);
    expect(res.statusCode).toBe(403);
    expect((await apiSettings(acct)).email.sender_name).toBe('Nordlicht Books');
  });

  it('opens a template with its variables, and shows the line of a syntax error next to the text without saving', async () => {
    const editor = await browser.get('/console/notifications/templates/?trigger=delivered&channel=email&language=en');
    expect(editor.statusCode).toBe(200);
    expect(editor.headers['content-security-policy']).toContain("frame-src 'self'");
    const saved = await apiTemplate(acct, 'delivered/email/en/');
    expect(saved.custom).toBe(false);
    for (const name of saved.variables as string[]) expect(editor.body).toContain(`<code>{{\u00a0${name}\u00a0}}</code>`);
    expect(saved.variables).toContain('shipment.tracking_number');
    expect(visibleText(editor.body)).toContain('This is the default text.');
    expect(editor.body).not.toContain('Reset to default');
    expect(visibleText(editor.body)).toContain(saved.subject);

    const body = 'Hello {{ recipient.name }},\n\nyour parcel is here.\n{% if shipment.tracking_number %}\nThanks!';
    const res = await postForm(browser, '/console/notifications/templates/', [
      ['trigger', 'delivered'],
      ['channel', 'email'],
      ['language', 'en'],
      ['subject', 'Delivered!'],
      ['body', body.replace(/\n/g, '\r\n')],
      ['action', 'save'],
    ]);
    expect(res.statusCode).toBe(400);
    const problem = /<p class="notice" id="body-problem">([^<]+)<\/p>/.exec(res.body);
    expect(problem?.[1]).toMatch(/^Line 4: /);
    expect(fieldBlock(res.body, 'body')).toContain('aria-invalid="true" aria-describedby="body-problem"');
    expect(visibleText(res.body)).toContain('Message text: Line 4:');
    // The text as typed (the newline after <textarea> is the parser's, not the text's).
    expect(res.body).toContain(`>\n${body}</textarea>`);
    expect((await apiTemplate(acct, 'delivered/email/en/')).custom).toBe(false);
  });

  it('previews the unsaved text: subject, plain text, and the HTML in a sandboxed frame with its own policy', async () => {
    const res = await postForm(browser, '/console/notifications/templates/', [
      ['trigger', 'out_for_delivery'],
      ['channel', 'email'],
      ['language', 'en'],
      ['subject', 'On its way today, {{ recipient.name }}'],
      ['body', 'Unsaved preview text for {{ shipment.shipment_id }}.\n\nSecond paragraph.'],
      ['action', 'preview'],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-security-policy']).toContain("frame-src 'self'");
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    const text = visibleText(res.body);
    expect(text).toContain('On its way today, Alex Example');
    expect(text).toContain('Unsaved preview text for ORDER-1001.');
    const frame = /<iframe class="preview" name="email-preview" title="E-mail preview" src="([^"]+)" sandbox /.exec(res.body);
    expect(frame).not.toBeNull();
    const src = frame![1].replace(/&amp;/g, '&');
    expect(src).toMatch(/^\/console\/notifications\/preview\/\?token=/);
    expect(src).not.toContain('Unsaved');
    expect((await apiTemplate(acct, 'out_for_delivery/email/en/')).custom).toBe(false);

    const html = await browser.get(src);
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toMatch(/^text\/html/);
    expect(html.headers['content-security-policy']).toBe(FRAME_POLICY);
    expect(html.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(html.body).toContain('Unsaved preview text for ORDER-1001.');
    expect(html.body).toContain('Second paragraph.');
    expect(html.body).not.toContain('<script');

    // Another account's session, a changed token, and an expired one get no preview.
    expect((await theirs.get(src)).statusCode).toBe(404);
    expect((await theirs.get(src)).body).not.toContain('Unsaved');
    expect((await browser.get(`${src.slice(0, -3)}AAA`)).statusCode).toBe(404);
    t.clock.advance(16 * 60_000);
    const expired = await browser.get(src);
    expect(expired.statusCode).toBe(404);
    expect(expired.headers['content-security-policy']).toBe(FRAME_POLICY);
    expect(expired.body).toContain('This preview has expired.');
    // Without a session: the sign-in page, never the preview.
    expect((await t.app.inject({ method: 'GET', url: src })).statusCode).toBe(303);
  });

  it('previews a text too long for a frame address as plain text, and still saves it', async () => {
    // Hex digits compress to about half: sealed, far more than a frame's address may carry.
    const long = `{{ shipment.shipment_id }} ${randomBytes(9_000).toString('hex')}`;
    expect(long.length).toBeGreaterThan(16_384);
    const pairs: Array<[string, string]> = [
      ['trigger', 'exception'],
      ['channel', 'email'],
      ['language', 'en'],
      ['subject', 'A long one'],
      ['body', long],
    ];
    const res = await postForm(browser, '/console/notifications/templates/', [...pairs, ['action', 'preview']]);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(res.body).not.toContain('<iframe');
    expect(visibleText(res.body)).toContain('This text is too long to preview as HTML before it is saved.');
    expect(visibleText(res.body)).toContain(`ORDER-1001 ${long.slice(27, 60)}`);
    const saved = await postForm(browser, '/console/notifications/templates/', [...pairs, ['action', 'save']]);
    expect(saved.statusCode).toBe(303);
    // Saved, its preview frame names the saved template only: a short address.
    const page = await browser.get(saved.headers.location as string);
    const src = /<iframe [^>]*src="([^"]+)"/.exec(page.body)?.[1];
    expect(src?.length).toBeLessThan(1_000);
    expect((await browser.get(src!.replace(/&amp;/g, '&'))).body).toContain(long.slice(27, 60));
    await postForm(browser, '/console/notifications/templates/reset/', pairs.slice(0, 3));
  });

  it('a preview with a mistake shows it on its field, with no frame', async () => {
    const res = await postForm(browser, '/console/notifications/templates/', [
      ['trigger', 'delivered'],
      ['channel', 'sms'],
      ['language', 'de'],
      ['body', 'Hallo\n{{ shipment.nope }}'],
      ['action', 'preview'],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/id="body-problem">Line 2: Unknown variable &quot;shipment.nope&quot;/);
    expect(res.body).not.toContain('<iframe');
    expect(res.body).not.toContain('id="subject"');
  });

  it('saves a template, shows it as the account’s own, and resets it to the default', async () => {
    const res = await postForm(browser, '/console/notifications/templates/', [
      ['trigger', 'delivered'],
      ['channel', 'sms'],
      ['language', 'de'],
      ['body', '{{ merchant.name }}: Paket {{ shipment.shipment_id }} ist da.'],
      ['action', 'save'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/console/notifications/templates/?trigger=delivered&channel=sms&language=de&saved=1');
    expect(await apiTemplate(acct, 'delivered/sms/de/')).toMatchObject({
      custom: true,
      body: '{{ merchant.name }}: Paket {{ shipment.shipment_id }} ist da.',
    });
    const page = await browser.get(res.headers.location as string);
    expect(visibleText(page.body)).toContain('Template saved.');
    expect(page.body).toContain('>\n{{ merchant.name }}: Paket {{ shipment.shipment_id }} ist da.</textarea>');
    expect(visibleText(page.body)).toContain('Paket ORDER-1001 ist da.');
    expect(page.body).not.toContain('<iframe');
    expect(page.headers['content-security-policy']).toContain("frame-src 'self'");
    // The other account still has the default.
    expect((await apiTemplate(other, 'delivered/sms/de/')).custom).toBe(false);

    const reset = await postForm(browser, '/console/notifications/templates/reset/', [
      ['trigger', 'delivered'],
      ['channel', 'sms'],
      ['language', 'de'],
    ]);
    expect(reset.statusCode).toBe(303);
    expect((await apiTemplate(acct, 'delivered/sms/de/')).custom).toBe(false);
    expect(visibleText((await browser.get(reset.headers.location as string)).body)).toContain('Template reset');
  });

  it('answers an unknown trigger, channel or language as not accepted', async () => {
    const res = await browser.get('/console/notifications/templates/?trigger=teleported&channel=email&language=en');
    expect(res.statusCode).toBe(400);
    expect(visibleText(res.body)).toContain('trigger: Must be one of');
  });

  it('lists the shipment’s messages on its page, and another account sees neither the page nor them', async () => {
    const created = await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'NTF-CONSOLE-1', notification_email: ['mila@example.com'] });
    expect(created.statusCode, created.body).toBe(200);
    const shipmentUuid = created.json().data.shipment_uuid as string;
    const account = (await t.context.repos.accounts.findByUuid(acct.accountUuid))!;
    const shipment = (await t.context.repos.shipments.findByUuid(account.id, shipmentUuid))!;
    const at = (minutes: number) => new Date(Date.parse('2026-03-02T08:00:00Z') + minutes * 60_000).toISOString();
    const row = (trigger: string, channel: string, recipient: string, status: string, reason: string | null, minutes: number) => ({
      notification_uuid: randomUUID(),
      account_id: account.id,
      shipment_row_id: Number(shipment.id),
      trigger,
      channel,
      recipient,
      language: 'en',
      status,
      reason,
      message_id: `<${randomUUID()}@waybill.test>`,
      provider_id: null,
      event_at: at(minutes),
      created_at: at(minutes),
      updated_at: at(minutes),
      sent_at: status === 'sent' ? at(minutes + 1) : null,
    });
    await t.context.repos.notifications.insertNew([
      row('out_for_delivery', 'email', 'mila@example.com', 'sent', null, 0),
      row('delivered', 'sms', '+4915112345678', 'suppressed', 'opted_out', 60),
      row('delivered', 'email', 'mila@example.com', 'failed', 'smtp_refused', 61),
    ]);

    const page = await browser.get(`/console/shipments/${shipmentUuid}/`);
    expect(page.statusCode).toBe(200);
    const section = page.body.slice(page.body.indexOf('id="notifications-heading"'));
    const rows = section.slice(section.indexOf('<tbody>'), section.indexOf('</tbody>')).split('</tr>').slice(0, -1);
    expect(rows).toHaveLength(3);
    expect(visibleText(rows[0])).toBe('Delivered E-mail mila@example.com failed smtp_refused 2 Mar 2026, 09:01 UTC');
    expect(visibleText(rows[1])).toBe('Delivered SMS +4915112345678 suppressed opted_out 2 Mar 2026, 09:00 UTC');
    expect(visibleText(rows[2])).toBe('Out for delivery E-mail mila@example.com sent – 2 Mar 2026, 08:01 UTC');
    expect(rows[2]).toContain('data-trigger="out_for_delivery"');

    const foreign = await theirs.get(`/console/shipments/${shipmentUuid}/`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain('mila@example.com');
    expect(foreign.body).not.toContain('+4915112345678');

    // A shipment without messages says so.
    const quiet = (await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'NTF-CONSOLE-2' })).json().data.shipment_uuid;
    expect(visibleText((await browser.get(`/console/shipments/${quiet}/`)).body)).toContain('No messages.');
  });
});
