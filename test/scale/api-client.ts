import http from 'node:http';

/** One call over a new connection (no keep-alive), so a cluster's processes take turns at accepting it. */
export function freshConnectionCall(
  base: string,
  method: string,
  pathname: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const url = new URL(pathname, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method,
        agent: false,
        headers: { ...headers, connection: 'close', ...(payload ? { 'content-type': 'application/json' } : {}) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export interface Merchant {
  accountUuid: string;
  clientId: string;
  clientSecret: string;
  token: string;
}

/** Operator calls (admin token) and a merchant with credentials and a token, over real HTTP. */
export function apiClient(base: string, adminToken: string) {
  const admin = async (method: string, pathname: string, body?: unknown) => {
    const res = await fetch(`${base}/admin/v1${pathname}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${pathname}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : null;
  };
  const token = async (clientId: string, clientSecret: string): Promise<string> => {
    const res = await fetch(`${base}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (res.status !== 200) throw new Error(`token: ${res.status} ${await res.text()}`);
    return (await res.json()).access_token;
  };
  const merchant = async (
    options: { features?: string[]; carriers?: Array<Record<string, unknown>>; webhookUrl?: string } = {},
  ): Promise<Merchant> => {
    const account = await admin('POST', '/accounts/', { name: `scale-${Date.now()}`, features: options.features ?? [] });
    const creds = await admin('POST', `/accounts/${account.account_uuid}/credentials/`);
    for (const carrier of options.carriers ?? []) {
      await admin('POST', `/accounts/${account.account_uuid}/carrier-configs/`, { carrier_id: 'sandbx', ...carrier });
    }
    if (options.webhookUrl) await admin('POST', `/accounts/${account.account_uuid}/webhooks/`, { url: options.webhookUrl });
    return {
      accountUuid: account.account_uuid,
      clientId: creds.client_id,
      clientSecret: creds.client_secret,
      token: await token(creds.client_id, creds.client_secret),
    };
  };
  return { admin, token, merchant };
}
