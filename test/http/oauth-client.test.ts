import { ClientCredentials } from 'simple-oauth2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** A stock OAuth 2.0 client, configured the way a merchant would: Basic credentials, the interface's token path. */
function oauthClient(baseUrl: string, id: string, secret: string): ClientCredentials {
  return new ClientCredentials({
    client: { id, secret },
    auth: { tokenHost: baseUrl, tokenPath: '/auth/oauth/token/' },
    options: { authorizationMethod: 'header' },
  });
}

describe('a standard OAuth 2.0 client library against the token endpoint', () => {
  let t: TestApp;
  let baseUrl: string;
  let acct: TestAccount;

  beforeAll(async () => {
    t = await createTestApp();
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
    acct = await t.account({ carriers: [{ carrier_reference: 'sb-main', booking: ['outbound'] }] });
  });
  afterAll(() => t.close());

  it('obtains a token with client credentials and calls the API with it', async () => {
    const accessToken = await oauthClient(baseUrl, acct.clientId, acct.clientSecret).getToken({});
    expect(accessToken.token).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(typeof accessToken.token.access_token).toBe('string');
    expect(accessToken.expired()).toBe(false);

    const res = await fetch(`${baseUrl}/v5/carrier-configs/`, {
      headers: { authorization: `Bearer ${accessToken.token.access_token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { api_response: string; data: Array<{ carrier_reference: string }> };
    expect(body.api_response).toBe('200');
    expect(body.data.map((config) => config.carrier_reference)).toEqual(['sb-main']);
  });

  it('reports wrong credentials to the library as 403 "Key not authorized"', async () => {
    const failure = await oauthClient(baseUrl, acct.clientId, 'not-the-secret')
      .getToken({})
      .then(
        () => null,
        (error: { output?: { statusCode: number }; data?: { payload: unknown } }) => error,
      );
    expect(failure?.output?.statusCode).toBe(403);
    expect(failure?.data?.payload).toEqual({ api_response: 403, message: 'Key not authorized' });
  });

  it('a token from the library is refused once it has expired', async () => {
    const accessToken = await oauthClient(baseUrl, acct.clientId, acct.clientSecret).getToken({});
    t.clock.advance(3600 * 1000);
    const res = await fetch(`${baseUrl}/v5/carrier-configs/`, {
      headers: { authorization: `Bearer ${accessToken.token.access_token}` },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ api_response: 403, message: 'Key not authorized' });
  });
});
