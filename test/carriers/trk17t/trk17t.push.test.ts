import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { carrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { Trk17tCarrier } from '../../../src/carriers/trk17t/trk17t.carrier.js';
import { signOf } from '../../../src/carriers/trk17t/trk17t.push.js';
import { FIXTURES, NUMBERS } from './trk17t.fixtures.js';

const KEY = 'trk17t-push-key-93be10c4';
const adapter = new Trk17tCarrier(carrierToolkit());
const raw = fs.readFileSync(path.join(FIXTURES, 'push-updated.json'));

/** A push as 17TRACK posts it: the raw body and its sign. */
const pushed = (body: Buffer, headers: Record<string, string> = {}, query: Record<string, string> = {}) => ({
  headers: { 'content-type': 'application/json', sign: signOf(body, KEY), ...headers },
  rawBody: body,
  query,
});

describe('trk17t push', () => {
  it('the sign is the SHA-256 (hex) of the raw body, a slash and the key', () => {
    const body = '{"event":"TRACKING_STOPPED","data":{"number":"RR900012343GB"}}';
    expect(signOf(body, KEY)).toBe(createHash('sha256').update(`${body}/${KEY}`).digest('hex'));
    expect(signOf(Buffer.from(body), KEY)).toBe(signOf(body, KEY));
  });

  it('verifies a signed push with the API key, or with the webhook key when one is set', () => {
    expect(adapter.verifyPush(pushed(raw), { api_key: KEY })).toBe(true);
    // The header's case does not matter.
    expect(adapter.verifyPush(pushed(raw, { sign: signOf(raw, KEY).toUpperCase() }), { api_key: KEY })).toBe(true);
    expect(adapter.verifyPush(pushed(raw), { api_key: 'another-api-key', webhook_key: KEY })).toBe(true);
    expect(adapter.verifyPush(pushed(raw), { api_key: KEY, webhook_key: 'another-webhook-key' })).toBe(false);
  });

  it('refuses a forged body, a wrong key, a missing or malformed sign', () => {
    const forged = Buffer.from(raw.toString('utf8').replace('AvailableForPickup_Other', 'Delivered_Other'));
    expect(adapter.verifyPush({ ...pushed(raw), rawBody: forged }, { api_key: KEY })).toBe(false);
    expect(adapter.verifyPush(pushed(raw), { api_key: 'not-the-key' })).toBe(false);
    const { sign: _sign, ...unsigned } = pushed(raw).headers;
    expect(adapter.verifyPush({ ...pushed(raw), headers: unsigned }, { api_key: KEY })).toBe(false);
    expect(adapter.verifyPush(pushed(raw, { sign: 'abc' }), { api_key: KEY })).toBe(false);
    expect(adapter.verifyPush(pushed(raw), {})).toBe(false);
  });

  it('reads the push token from the hook URL’s push_token, else the bearer header', () => {
    const request = pushed(raw, {}, { push_token: 'wbpush_from_url' });
    expect(adapter.pushToken(request.headers, request)).toBe('wbpush_from_url');
    const proxied = pushed(raw, { authorization: 'Bearer wbpush_from_header' });
    expect(adapter.pushToken(proxied.headers, proxied)).toBe('wbpush_from_header');
    expect(adapter.pushToken(pushed(raw).headers, pushed(raw))).toBeNull();
  });

  it('maps a TRACKING_UPDATED push through the same mapper as a poll', () => {
    const parsed = adapter.parsePush(JSON.parse(raw.toString('utf8')));
    expect(parsed.ok && parsed.updates.map((u) => [u.tracking_number, u.result.status])).toEqual([[NUMBERS.inpost, 'ok']]);
  });
});
