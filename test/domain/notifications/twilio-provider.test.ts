import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkSettings, isSecret, secretNames } from '../../../src/carriers/sdk/settings.js';
import { type SmsOutcome, smsProvider, smsProviders } from '../../../src/domain/notifications/sms/sms-provider.js';
import {
  type TwilioSettings,
  TwilioSettingsSchema,
  twilioProvider,
  twilioSignature,
} from '../../../src/domain/notifications/sms/twilio.provider.js';
import { signInbound, TwilioServer } from '../../support/twilio-server.js';

let server: TwilioServer;
let settings: TwilioSettings;
const provider = () => twilioProvider({ baseUrl: server.url, timeoutMs: 400 });

beforeAll(async () => {
  server = await TwilioServer.start();
  settings = { account_sid: server.accountSid, auth_token: server.authToken, from: '+15005550006' };
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  server.messages.length = 0;
  server.requests.length = 0;
});

function message(to = '+4915123456789', body = 'Your parcel is out for delivery.') {
  return { to, body, reference: 'ntf_1', statusCallbackUrl: 'https://waybill.example/v1/sms/twilio/status' };
}

function expectFailed(outcome: SmsOutcome): Extract<SmsOutcome, { status: 'failed' }> {
  if (outcome.status !== 'failed') throw new Error(`expected a failure, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** No failure text may carry the token, alone or inside the Basic credential. */
function expectNoSecret(outcome: SmsOutcome, token: string, sid = server.accountSid): void {
  const text = JSON.stringify(outcome);
  expect(text).not.toContain(token);
  expect(text).not.toContain(Buffer.from(`${sid}:${token}`).toString('base64'));
}

describe('Twilio send', () => {
  it('posts the form with Basic auth and returns the message sid', async () => {
    const outcome = await provider().send(message(), settings);
    expect(outcome).toEqual({ status: 'accepted', providerMessageId: expect.stringMatching(/^SM[0-9a-f]{32}$/) });
    expect(server.messages).toHaveLength(1);
    expect(server.messages[0]).toMatchObject({
      sid: (outcome as { providerMessageId: string }).providerMessageId,
      to: '+4915123456789',
      from: '+15005550006',
      body: 'Your parcel is out for delivery.',
      messagingServiceSid: null,
      statusCallback: 'https://waybill.example/v1/sms/twilio/status',
    });
    const [request] = server.requests;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/2010-04-01/Accounts/${server.accountSid}/Messages.json`);
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.keys(request.params).sort()).toEqual(['Body', 'From', 'StatusCallback', 'To']);
  });

  it('sends through a Messaging Service instead of a From number when one is set', async () => {
    const service = `MG${'0a'.repeat(16)}`;
    const outcome = await provider().send(message(), { ...settings, messaging_service_sid: service });
    expect(outcome.status).toBe('accepted');
    expect(server.requests[0].params).not.toHaveProperty('From');
    expect(server.messages[0]).toMatchObject({ messagingServiceSid: service, from: null });
  });

  it('leaves StatusCallback out when the message has none', async () => {
    await provider().send({ to: '+4915123456789', body: 'Hi', reference: 'ntf_2' }, settings);
    expect(server.requests[0].params).not.toHaveProperty('StatusCallback');
  });

  it.each([
    ['+15005550001', '21211'],
    ['+15005550002', '21612'],
    ['+15005550003', '21408'],
    ['+15005550004', '21610'],
    ['+15005550009', '21614'],
  ])('a refusal of %s (Twilio %s) is permanent', async (to, code) => {
    const failure = expectFailed(await provider().send(message(to), settings));
    expect(failure).toMatchObject({ permanent: true, code });
    expect(failure.message).toContain(`error ${code}`);
    expect(failure.retryAfterSeconds).toBeUndefined();
    expect(server.messages).toHaveLength(0);
  });

  it('a body over 1,600 characters (21617) is permanent', async () => {
    const failure = expectFailed(await provider().send(message(undefined, 'x'.repeat(1601)), settings));
    expect(failure).toMatchObject({ permanent: true, code: '21617' });
  });

  it('wrong credentials (401, 20003) are permanent and never quoted', async () => {
    const wrong = { ...settings, auth_token: 'not-the-token-0123456789abcdef' };
    const failure = expectFailed(await provider().send(message(), wrong));
    expect(failure).toMatchObject({ permanent: true, code: '20003' });
    expectNoSecret(failure, wrong.auth_token);
  });

  it('429 with Retry-After is temporary and carries the wait', async () => {
    server.failNext(1, 429, { retryAfter: 7 });
    const failure = expectFailed(await provider().send(message(), settings));
    expect(failure).toMatchObject({ permanent: false, code: '20429', retryAfterSeconds: 7 });
    // The next request goes through.
    expect((await provider().send(message(), settings)).status).toBe('accepted');
  });

  it('Retry-After as an HTTP date is turned into seconds', async () => {
    server.failNext(1, 503, { retryAfter: new Date(Date.now() + 60_000).toUTCString() });
    const failure = expectFailed(await provider().send(message(), settings));
    expect(failure.permanent).toBe(false);
    expect(failure.retryAfterSeconds).toBeGreaterThanOrEqual(58);
    expect(failure.retryAfterSeconds).toBeLessThanOrEqual(60);
  });

  it('14107 (rate limit between two numbers) is temporary, 30 s by default as Twilio documents', async () => {
    server.failNext(1, 429, { code: 14107 });
    expect(expectFailed(await provider().send(message(), settings))).toMatchObject({
      permanent: false,
      code: '14107',
      retryAfterSeconds: 30,
    });
  });

  it('500 is temporary', async () => {
    server.failNext(1, 500);
    const failure = expectFailed(await provider().send(message(), settings));
    expect(failure).toMatchObject({ permanent: false, code: '20500' });
    expect(failure.retryAfterSeconds).toBeUndefined();
  });

  it('no answer within the deadline is a temporary timeout', async () => {
    server.hangNext(1);
    const started = Date.now();
    const failure = expectFailed(await provider().send(message(), settings));
    expect(failure).toMatchObject({ permanent: false, code: 'timeout' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("the caller's abort is temporary too", async () => {
    server.hangNext(1);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const failure = expectFailed(
      await twilioProvider({ baseUrl: server.url, timeoutMs: 5000 }).send(message(), settings, controller.signal),
    );
    expect(failure).toMatchObject({ permanent: false, code: 'aborted' });
  });

  it('an unreachable API is a temporary network error', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = expectFailed(await twilioProvider({ baseUrl: `http://127.0.0.1:${port}`, timeoutMs: 1000 }).send(message(), settings));
    expect(failure).toMatchObject({ permanent: false, code: 'network_error' });
  });

  it('never repeats the token, even when the API echoes it', async () => {
    // A misbehaving proxy that quotes the request's credentials back in its error.
    const echo = http.createServer((req, res) => {
      const auth = String(req.headers.authorization ?? '');
      const token = Buffer.from(auth.replace(/^Basic /, ''), 'base64')
        .toString()
        .split(':')[1];
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 21211, message: `bad request with ${auth} and ${token}`, status: 400 }));
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
      const failure = expectFailed(await twilioProvider({ baseUrl: url }).send(message(), settings));
      expect(failure.permanent).toBe(true);
      expect(failure.message).toContain('[redacted]');
      expectNoSecret(failure, settings.auth_token);
    } finally {
      await new Promise<void>((resolve) => echo.close(() => resolve()));
    }
  });

  it('a 2xx without a sid is temporary', async () => {
    const odd = http.createServer((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{}');
    });
    await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
      expect(expectFailed(await twilioProvider({ baseUrl: url }).send(message(), settings))).toMatchObject({
        permanent: false,
        code: 'invalid_response',
      });
    } finally {
      await new Promise<void>((resolve) => odd.close(() => resolve()));
    }
  });
});

describe('Twilio settings', () => {
  const sid = `AC${'ab'.repeat(16)}`;

  it('requires from unless a Messaging Service is set, reported at settings.from', () => {
    const errors = checkSettings(TwilioSettingsSchema, { account_sid: sid, auth_token: 'token' });
    expect(errors.map((error) => error.path.join('.'))).toContain('settings.from');
    expect(checkSettings(TwilioSettingsSchema, { account_sid: sid, auth_token: 'token', from: '+15005550006' })).toEqual([]);
    expect(
      checkSettings(TwilioSettingsSchema, { account_sid: sid, auth_token: 'token', messaging_service_sid: `MG${'cd'.repeat(16)}` }),
    ).toEqual([]);
  });

  it('checks the SIDs and the sender, and never quotes the token', () => {
    const errors = checkSettings(TwilioSettingsSchema, { account_sid: 'AC123', auth_token: 'has space', from: '0151' });
    expect(errors.map((error) => error.path.join('.')).sort()).toEqual(['settings.account_sid', 'settings.auth_token', 'settings.from']);
    expect(JSON.stringify(errors)).not.toContain('has space');
  });

  it('marks the auth token secret', () => {
    const twilio = smsProvider('twilio')!;
    expect(twilio.secretFields).toEqual(['auth_token']);
    expect(secretNames(TwilioSettingsSchema)).toEqual(['auth_token']);
    expect(isSecret(TwilioSettingsSchema.properties.auth_token)).toBe(true);
    expect((TwilioSettingsSchema.properties.auth_token as { secret?: boolean }).secret).toBe(true);
  });

  it('is in the registry under its id', () => {
    expect([...smsProviders.keys()]).toEqual(['twilio']);
    expect(smsProvider('twilio')?.id).toBe('twilio');
    expect(smsProvider('nexmo')).toBeNull();
  });
});

describe('Twilio inbound signature', () => {
  // Twilio's documented example (twilio.com/docs/usage/security, "Validating Requests"): token 12345.
  const exampleUrl = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const exampleParams = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
  const exampleSettings = { account_sid: `AC${'0'.repeat(32)}`, auth_token: '12345', from: '+15005550006' };
  const twilio = twilioProvider();

  it("accepts Twilio's documented example", () => {
    expect(twilioSignature(exampleUrl, exampleParams, '12345')).toBe('0/KCTR6DLpKmkAf8muzZqo1nDgQ=');
    expect(
      twilio.verifyInbound(
        { url: exampleUrl, headers: { 'x-twilio-signature': '0/KCTR6DLpKmkAf8muzZqo1nDgQ=' }, params: exampleParams },
        exampleSettings,
      ),
    ).toBe(true);
  });

  it("accepts the helper libraries' older example of the same scheme", () => {
    const params = { ...exampleParams, Caller: '+14158675309', From: '+14158675309' };
    const headers = { 'X-Twilio-Signature': 'RSOYDt4T1cUTdK1PDd93/VVr8B8=' };
    expect(twilio.verifyInbound({ url: exampleUrl, headers, params }, exampleSettings)).toBe(true);
  });

  it('rejects tampered fields, URL, token, and a missing signature', () => {
    const headers = { 'x-twilio-signature': '0/KCTR6DLpKmkAf8muzZqo1nDgQ=' };
    expect(twilio.verifyInbound({ url: exampleUrl, headers, params: { ...exampleParams, Digits: '1235' } }, exampleSettings)).toBe(false);
    expect(twilio.verifyInbound({ url: exampleUrl, headers, params: { ...exampleParams, Extra: '' } }, exampleSettings)).toBe(false);
    expect(twilio.verifyInbound({ url: `${exampleUrl}&baz=3`, headers, params: exampleParams }, exampleSettings)).toBe(false);
    expect(twilio.verifyInbound({ url: exampleUrl, headers, params: exampleParams }, { ...exampleSettings, auth_token: '12346' })).toBe(
      false,
    );
    expect(twilio.verifyInbound({ url: exampleUrl, headers: {}, params: exampleParams }, exampleSettings)).toBe(false);
    expect(
      twilio.verifyInbound({ url: exampleUrl, headers: { 'x-twilio-signature': 'short' }, params: exampleParams }, exampleSettings),
    ).toBe(false);
  });

  it('agrees with the test server helper, and tolerates the default port being added or dropped', () => {
    const params = { MessageSid: `SM${'1'.repeat(32)}`, From: '+4915123456789', To: '+15005550006', Body: 'STOP' };
    const url = 'https://waybill.example/v1/sms/twilio/inbound?account=7';
    const signature = signInbound(url, params, server.authToken);
    expect(signature).toBe(twilioSignature(url, params, server.authToken));
    expect(twilio.verifyInbound({ url, headers: { 'x-twilio-signature': [signature] }, params }, settings)).toBe(true);
    expect(
      twilio.verifyInbound(
        { url: 'https://waybill.example:443/v1/sms/twilio/inbound?account=7', headers: { 'x-twilio-signature': signature }, params },
        settings,
      ),
    ).toBe(true);
    expect(
      twilio.verifyInbound(
        { url: 'https://waybill.example:8443/v1/sms/twilio/inbound?account=7', headers: { 'x-twilio-signature': signature }, params },
        settings,
      ),
    ).toBe(false);
  });
});

describe('Twilio inbound messages', () => {
  const twilio = twilioProvider();
  const inbound = (Body: string, extra: Record<string, string> = {}) => ({ From: '+4915123456789', To: '+15005550006', Body, ...extra });

  it.each(['STOP', 'stop', ' Stop. ', 'STOPALL', 'Unsubscribe', 'cancel', 'END', 'quit', 'REVOKE', 'optout', 'Stop!'])(
    '"%s" opts out',
    (body) => {
      expect(twilio.parseInbound(inbound(body))).toEqual({ kind: 'opt_out', from: '+4915123456789', to: '+15005550006', body });
    },
  );

  it.each(['START', 'start', 'Unstop', 'yes', 'YES.'])('"%s" opts back in', (body) => {
    expect(twilio.parseInbound(inbound(body)).kind).toBe('opt_in');
  });

  it.each(['stop sending', 'Where is my parcel?', 'HELP', '', 'yesterday'])('"%s" is another message', (body) => {
    expect(twilio.parseInbound(inbound(body)).kind).toBe('other');
  });

  it("follows Twilio's OptOutType when Advanced Opt-Out recognised a custom keyword", () => {
    expect(twilio.parseInbound(inbound('Arrêt', { OptOutType: 'STOP' })).kind).toBe('opt_out');
    expect(twilio.parseInbound(inbound('Weiter', { OptOutType: 'START' })).kind).toBe('opt_in');
    expect(twilio.parseInbound(inbound('Hilfe', { OptOutType: 'HELP' })).kind).toBe('other');
  });
});

describe('Twilio delivery reports', () => {
  const twilio = twilioProvider();
  const sid = `SM${'2'.repeat(32)}`;

  it('maps delivered, pending and failed statuses', () => {
    expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: 'delivered' })).toEqual({
      providerMessageId: sid,
      state: 'delivered',
    });
    for (const status of ['queued', 'accepted', 'sending', 'sent', 'scheduled']) {
      expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: status })).toEqual({ providerMessageId: sid, state: 'pending' });
    }
    expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: 'undelivered', ErrorCode: '30003' })).toEqual({
      providerMessageId: sid,
      state: 'failed',
      code: '30003',
      permanent: false,
    });
    expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: 'failed', ErrorCode: '30006', ErrorMessage: 'Landline' })).toEqual({
      providerMessageId: sid,
      state: 'failed',
      code: '30006',
      message: 'Landline',
      permanent: true,
    });
    expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: 'failed' })).toMatchObject({ state: 'failed', code: 'failed' });
  });

  it('reads the legacy SmsSid/SmsStatus names too', () => {
    expect(twilio.parseDeliveryReport({ SmsSid: sid, SmsStatus: 'delivered' })).toEqual({ providerMessageId: sid, state: 'delivered' });
  });

  it('returns null for inbound statuses and for fields that are no report', () => {
    expect(twilio.parseDeliveryReport({ MessageSid: sid, MessageStatus: 'received' })).toBeNull();
    expect(twilio.parseDeliveryReport({ MessageStatus: 'delivered' })).toBeNull();
    expect(twilio.parseDeliveryReport({ MessageSid: sid })).toBeNull();
  });
});
