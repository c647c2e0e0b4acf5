import { afterEach, describe, expect, it } from 'vitest';
import { acceptsPush, bearerPushToken } from '../../../src/carriers/push.js';
import { requestsFor } from '../support/kit.js';
import { fixture, NUMBERS, SETTINGS, type Ship24Server, ship24Adapter, ship24Server } from './ship24-server.js';

const servers: Ship24Server[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()?.close();
});

describe('ship24 push: webhooks through the adapter', () => {
  it('finds the configuration by the push token in the URL, else by the bearer', async () => {
    const server = await ship24Server();
    servers.push(server);
    const { adapter } = ship24Adapter(server);
    expect(acceptsPush(adapter)).toBe(true);
    const headers = { authorization: 'Bearer ship24-allocated-secret' };
    expect(adapter.pushToken(headers, { headers, rawBody: Buffer.alloc(0), query: { push_token: 'wbpush_abc' } })).toBe('wbpush_abc');
    expect(adapter.pushToken(headers, { headers, rawBody: Buffer.alloc(0), query: { push_token: ['wbpush_abc', 'x'] } })).toBe(
      'wbpush_abc',
    );
    expect(adapter.pushToken({ authorization: 'Bearer wbpush_abc' }, { headers, rawBody: Buffer.alloc(0), query: {} })).toBe('wbpush_abc');
    expect(adapter.pushToken({ authorization: 'Bearer wbpush_abc' })).toBe('wbpush_abc');
    expect(adapter.pushToken({})).toBeNull();
  });

  it("checks Ship24's Webhook Secret as the bearer, with the token in the URL, when the configuration has it", async () => {
    const server = await ship24Server();
    servers.push(server);
    const { adapter } = ship24Adapter(server);
    const pushed = (authorization: string | undefined, query: Record<string, string> = { push_token: 'wbpush_abc' }) => ({
      headers: authorization ? { authorization } : {},
      rawBody: Buffer.from('{}'),
      query,
    });
    const settings = { ...SETTINGS, webhook_secret: 'ship24-allocated-secret' };
    expect(adapter.verifyPush(pushed('Bearer ship24-allocated-secret'), settings)).toBe(true);
    expect(adapter.verifyPush(pushed('Bearer ship24-allocated-secreT'), settings)).toBe(false);
    expect(adapter.verifyPush(pushed('Bearer ship24'), settings)).toBe(false);
    expect(adapter.verifyPush(pushed(undefined), settings)).toBe(false);
    // Without a secret set, the push token is the whole check, in the URL or as the bearer.
    expect(adapter.verifyPush(pushed(undefined), SETTINGS)).toBe(true);
    expect(adapter.verifyPush(pushed('Bearer wbpush_abc', {}), SETTINGS)).toBe(true);
    // With one, the push token as the bearer alone (no secret) is refused.
    expect(adapter.verifyPush(pushed('Bearer wbpush_abc', {}), settings)).toBe(false);
    expect(bearerPushToken({ authorization: 'Bearer wbpush_abc' })).toBe('wbpush_abc');
  });

  it('maps pushed events like a poll, naming the courier once the list is known', async () => {
    const server = await ship24Server({ registered: [NUMBERS.delivered] });
    servers.push(server);
    const { adapter } = ship24Adapter(server);
    const before = adapter.parsePush(fixture('webhook.json'));
    if (!before.ok) throw new Error(before.message);
    expect(before.updates.map((u) => u.tracking_number)).toEqual([NUMBERS.delivered]);
    const [update] = before.updates;
    expect(update.result).toMatchObject({ status: 'ok', events: [{ event_key: 'out_for_delivery', timezone: 'Europe/London' }] });
    expect(update.result.status === 'ok' && update.result.carrier_of_record).toBeUndefined();
    // A poll reads the courier list; pushes name the courier from then on.
    await adapter.track(requestsFor(NUMBERS.delivered), SETTINGS, { now: new Date() });
    const after = adapter.parsePush(fixture('webhook.json'));
    expect(after.ok && after.updates[0].result).toMatchObject({ carrier_of_record: { name: 'Royal Mail', courier_code: 'royal-mail' } });
  });

  it('refuses a body that is not a trackings list', async () => {
    const server = await ship24Server();
    servers.push(server);
    const { adapter } = ship24Adapter(server);
    expect(adapter.parsePush({ data: [] })).toEqual({ ok: false, message: 'The body has no "trackings" list.' });
  });
});
