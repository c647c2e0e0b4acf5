import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateSchema, schemaFile } from '../../clients/typescript/generate.js';
import { createWaybillClient } from '../../clients/typescript/src/index.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('typed TypeScript client', () => {
  it('has a committed schema.d.ts equal to a fresh generation (run `npm run client:generate`)', async () => {
    const fresh = await generateSchema();
    expect(fs.readFileSync(schemaFile, 'utf8') === fresh, 'clients/typescript/src/schema.d.ts is stale: run npm run client:generate').toBe(
      true,
    );
  });

  describe('against the API', () => {
    let t: TestApp;
    let acct: TestAccount;
    let baseUrl: string;
    beforeAll(async () => {
      t = await createTestApp();
      acct = await t.account();
      baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => t.close());

    it('creates and reads a shipment with typed calls, fetching one token for several calls', async () => {
      let tokenCalls = 0;
      const counting: typeof fetch = (input, init) => {
        if (String(input instanceof Request ? input.url : input).endsWith('/auth/oauth/token/')) tokenCalls++;
        return fetch(input, init);
      };
      const waybill = createWaybillClient({ baseUrl, clientId: acct.clientId, clientSecret: acct.clientSecret, fetch: counting });
      const created = await waybill.POST('/v5/shipment/', { body: { shipment_id: 'typed-1', tags: ['a'] } });
      expect(created.response.status).toBe(200);
      expect(created.data?.data.shipment_uuid).toEqual(expect.any(String));
      const details = await waybill.GET('/v5-2-0/shipment/details/', { params: { query: { shipment_id: 'typed-1' } } });
      expect(details.data?.data.tags).toEqual(['a']);
      expect(tokenCalls).toBe(1);

      const bad = await waybill.POST('/v5/shipment/', { body: { shipment_id: '' } });
      expect(bad.response.status).toBe(400);
      expect(bad.error?.api_response).toBe('4030');
    });
  });
});
