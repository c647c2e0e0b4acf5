import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, paths } from './schema.js';

export interface WaybillClientOptions {
  /** e.g. `https://waybill.example.com` */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
}

/**
 * A typed Waybill client: every path, body and answer typed from the service's OpenAPI document, with
 * access tokens fetched by the client-credentials grant and renewed a minute before they expire (or at
 * once when the service refuses one).
 */
export function createWaybillClient(options: WaybillClientOptions): Client<paths> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  let token: string | null = null;
  let expiresAt = 0;

  const accessToken = async (): Promise<string> => {
    if (token && Date.now() < expiresAt - 60_000) return token;
    const response = await doFetch(`${baseUrl}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${options.clientId}:${options.clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!response.ok) throw new Error(`Waybill token refused: HTTP ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { access_token: string; expires_in: number };
    token = body.access_token;
    expiresAt = Date.now() + body.expires_in * 1000;
    return token;
  };

  const auth: Middleware = {
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${await accessToken()}`);
      return request;
    },
    async onResponse({ response }) {
      // A revoked or expired token: the next call fetches a new one.
      if (response.status === 403) token = null;
      return response;
    },
  };

  const client = createClient<paths>({ baseUrl, fetch: doFetch });
  client.use(auth);
  return client;
}
