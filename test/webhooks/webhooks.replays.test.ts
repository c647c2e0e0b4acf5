import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Answers that carry a webhook secret, retried under an Idempotency-Key. */
describe('replays of answers with a webhook secret', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    acct = await t.account();
  });
  afterAll(() => t.close());

  const post = (url: string, key: string, body?: unknown) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${acct.token}`, 'idempotency-key': key },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  const storedResponse = async (key: string) => {
    const row = await t.context.database.db
      .selectFrom('request_replays')
      .select(['response', 'status_code'])
      .where('replay_key', '=', key)
      .executeTakeFirstOrThrow();
    return row;
  };

  it('stores the registration sealed, and gives the same answer, secret included, to a retry', async () => {
    const body = { url: 'http://127.0.0.1:9/hooks' };
    const first = await post('/v5/webhooks/', 'register-1', body);
    expect(first.statusCode, first.body).toBe(201);
    const { secret, webhook_uuid } = first.json().data;
    expect(secret).toMatch(/^whsec_/);

    const row = await storedResponse('register-1');
    expect(row.status_code).toBe(201);
    expect(row.response).not.toContain(secret);
    expect(row.response).not.toContain(secret.slice('whsec_'.length));
    expect(row.response).not.toContain('whsec_');
    expect(row.response).not.toContain(webhook_uuid);

    const retry = await post('/v5/webhooks/', 'register-1', body);
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    const listed = (await t.as(acct)('GET', '/v5/webhooks/')).json().data;
    expect(listed.map((e: { webhook_uuid: string }) => e.webhook_uuid)).toEqual([webhook_uuid]);
  });

  it('stores a rotation sealed, and a retry neither rotates again nor shows another secret', async () => {
    const { webhook_uuid } = (await t.as(acct)('POST', '/v5/webhooks/', { url: 'http://127.0.0.1:9/other' })).json().data;
    const url = `/v5/webhooks/${webhook_uuid}/rotate-secret/`;
    const first = await post(url, 'rotate-1');
    expect(first.statusCode, first.body).toBe(200);
    const { secret } = first.json().data;

    const row = await storedResponse('rotate-1');
    expect(row.response).not.toContain(secret);
    expect(row.response).not.toContain('whsec_');

    const retry = await post(url, 'rotate-1');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toBe(first.body);
    // The endpoint signs with the rotated secret and the one before it, not with a third.
    const endpoint = await t.context.repos.webhooks.findEndpoint(
      (await t.context.repos.accounts.findByUuid(acct.accountUuid))!.id,
      webhook_uuid,
    );
    expect(t.context.webhookEndpoints.signingSecrets(endpoint!)).toHaveLength(2);
    expect(t.context.webhookEndpoints.signingSecrets(endpoint!)[0]).toBe(secret);
  });

  it('keeps other answers as they were', async () => {
    const first = await post('/v5/shipment/', 'shipment-1', { shipment_id: 'REPLAY-PLAIN' });
    expect(first.statusCode, first.body).toBe(200);
    expect((await storedResponse('shipment-1')).response).toBe(first.body);
    expect((await post('/v5/shipment/', 'shipment-1', { shipment_id: 'REPLAY-PLAIN' })).body).toBe(first.body);
  });

  it('answers 409, not a 500, when a sealed answer cannot be opened (sealed under another secret key)', async () => {
    const first = await post('/v5/webhooks/', 'register-old-key', { url: 'http://127.0.0.1:9/old-key' });
    expect(first.statusCode, first.body).toBe(201);
    // What a row sealed under a former WAYBILL_SECRET_KEY looks like to this one: its tag does not verify.
    const row = await storedResponse('register-old-key');
    const [iv, tag, body] = String(row.response).slice('sealed:'.length).split('.');
    const forged = `sealed:${iv}.${Buffer.alloc(Buffer.from(tag, 'base64url').length).toString('base64url')}.${body}`;
    await t.context.database.db
      .updateTable('request_replays')
      .set({ response: forged })
      .where('replay_key', '=', 'register-old-key')
      .execute();
    const retry = await post('/v5/webhooks/', 'register-old-key', { url: 'http://127.0.0.1:9/old-key' });
    expect(retry.statusCode, retry.body).toBe(409);
    expect(retry.json()).toMatchObject({ api_response: '4090' });
  });
});
