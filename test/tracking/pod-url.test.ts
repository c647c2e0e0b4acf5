import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('pod_url', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  const details = async (version = '/v5-2-0') =>
    (await t.as(acct)('GET', `${version}/shipment/details/`, undefined, { shipment_id: 'POD-1' })).json().data;

  it('is a signed link to the proof of delivery, valid 7 days, made anew for each response', async () => {
    await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'POD-1', tracking_number: 'WB4000100', carrier_reference: 'sb' });
    expect((await details()).pod_url).toBeNull();
    await t.context.worker.runOnce();
    const first = await details();
    expect(first.status).toBe('delivered');
    expect(first.pod_url).toMatch(/^https:\/\/waybill\.test\/files\/pod\/[0-9a-f-]{36}\/\?expires=\d+&signature=/);
    expect((await details('/v5')).pod_url).toBeUndefined();

    const path = first.pod_url.replace('https://waybill.test', '');
    const proof = await t.app.inject({ method: 'GET', url: path });
    expect(proof.statusCode).toBe(200);
    expect(proof.headers['content-type']).toBe('image/png');
    expect(proof.rawPayload.subarray(1, 4).toString()).toBe('PNG');

    const tampered = path.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 60}`);
    expect((await t.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);

    t.clock.advance(6 * 24 * 60 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    t.clock.advance(2 * 24 * 60 * 60_000);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
    const fresh = (await details()).pod_url.replace('https://waybill.test', '');
    expect(fresh).not.toBe(path);
    expect((await t.app.inject({ method: 'GET', url: fresh })).statusCode).toBe(200);
  });
});
