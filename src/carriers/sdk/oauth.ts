import type { CarrierError } from '../carrier.js';
import type { CarrierHttp } from './http.js';
import type { IssuedToken } from './token-cache.js';

export interface ClientCredentialsRequest {
  carrier: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** `basic`: credentials in an Authorization header (RFC 6749 §2.3.1); `body`: as form fields. */
  style: 'basic' | 'body';
  /** Extra form fields (e.g. a scope) or headers the carrier's token endpoint wants. */
  form?: Record<string, string>;
  headers?: Record<string, string>;
  /** `form` (the OAuth default) or `json` for token endpoints that take JSON. */
  encoding?: 'form' | 'json';
  signal?: AbortSignal;
}

/** Fetches an access token with the client-credentials grant. Failures are data. */
export async function clientCredentialsToken(http: CarrierHttp, request: ClientCredentialsRequest): Promise<IssuedToken | CarrierError> {
  const fields: Record<string, string> = { grant_type: 'client_credentials', ...request.form };
  const headers: Record<string, string> = { ...request.headers };
  if (request.style === 'basic') {
    headers.authorization = `Basic ${Buffer.from(`${request.clientId}:${request.clientSecret}`).toString('base64')}`;
  } else {
    fields.client_id = request.clientId;
    fields.client_secret = request.clientSecret;
  }
  const json = request.encoding === 'json';
  headers['content-type'] = json ? 'application/json' : 'application/x-www-form-urlencoded';
  const response = await http.call({
    carrier: request.carrier,
    method: 'POST',
    url: request.tokenUrl,
    headers,
    body: json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
    signal: request.signal,
    secrets: [request.clientSecret, request.clientId],
  });
  if ('retryable' in response) return response;
  const body = response.json() as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (response.status >= 400 || typeof body?.access_token !== 'string' || body.access_token === '') {
    return {
      status: 'error',
      retryable: false,
      message: `${request.carrier} did not issue an access token (HTTP ${response.status}); check client_id and client_secret`,
    };
  }
  const expires = Number(body.expires_in);
  return { access_token: body.access_token, expires_in_seconds: Number.isFinite(expires) && expires > 0 ? expires : 3600 };
}

export interface PasswordGrantRequest {
  carrier: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  /** The resource owner: a user of the carrier's customer portal, not of the developer app. */
  username: string;
  password: string;
  /** Extra headers the carrier's token endpoint wants. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/**
 * Fetches an access token with the resource owner password credentials grant (RFC 6749 §4.3), every
 * parameter in the form body. Failures are data.
 */
export async function passwordGrantToken(http: CarrierHttp, request: PasswordGrantRequest): Promise<IssuedToken | CarrierError> {
  const fields = {
    grant_type: 'password',
    username: request.username,
    password: request.password,
    client_id: request.clientId,
    client_secret: request.clientSecret,
  };
  const response = await http.call({
    carrier: request.carrier,
    method: 'POST',
    url: request.tokenUrl,
    headers: { ...request.headers, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
    signal: request.signal,
    secrets: [request.clientSecret, request.clientId, request.password],
  });
  if ('retryable' in response) return response;
  const body = response.json() as { access_token?: unknown; expires_in?: unknown } | undefined;
  if (response.status >= 400 || typeof body?.access_token !== 'string' || body.access_token === '') {
    return {
      status: 'error',
      retryable: false,
      message: `${request.carrier} did not issue an access token (HTTP ${response.status}); check the API key and secret, user name and password`,
    };
  }
  const expires = Number(body.expires_in);
  return { access_token: body.access_token, expires_in_seconds: Number.isFinite(expires) && expires > 0 ? expires : 1800 };
}
