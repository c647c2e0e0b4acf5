import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

interface Answer {
  status: number;
  body: any;
  peerFingerprint: string | null;
}

/** One request with node's own client; TLS certificates are not checked (the test's certificate is self-signed). */
function request(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const target = new URL(url);
  const client = target.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      { method: options.method ?? 'GET', headers: options.headers, rejectUnauthorized: false, agent: false },
      (res) => {
        const socket = res.socket as TLSSocket;
        const peerFingerprint = typeof socket.getPeerCertificate === 'function' ? socket.getPeerCertificate().fingerprint256 : null;
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, body: text.startsWith('{') ? JSON.parse(text) : text, peerFingerprint });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** An account, credentials and a token made through the services, since the gate also guards the admin API. */
async function tokenFor(t: TestApp): Promise<{ token: string; basic: string }> {
  const account = await t.context.accounts.create({ name: 'https-test' });
  const creds = await t.context.accounts.createCredentials(account.account_uuid);
  const issued = await t.context.auth.issueToken(creds.client_id, creds.client_secret);
  if (!issued) throw new Error('no token');
  return {
    token: issued.access_token,
    basic: `Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
  };
}

const tokenRequest = (basic: string) => ({
  method: 'POST',
  headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
  body: 'grant_type=client_credentials',
});

const httpsRequired = { api_response: 403, message: expect.stringMatching(/HTTPS/) };

describe('HTTPS', () => {
  let certDir: string;
  let certFile: string;
  let keyFile: string;

  beforeAll(() => {
    certDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-tls-'));
    certFile = path.join(certDir, 'cert.pem');
    keyFile = path.join(certDir, 'key.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        keyFile,
        '-out',
        certFile,
        '-days',
        '1',
        '-subj',
        '/CN=waybill.test',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
      ],
      { stdio: 'pipe' },
    );
  });
  afterAll(() => fs.rmSync(certDir, { recursive: true, force: true }));

  describe('with TLS_CERT_FILE and TLS_KEY_FILE', () => {
    let t: TestApp;
    let url: string;
    beforeAll(async () => {
      t = await createTestApp({ env: { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile, WAYBILL_REQUIRE_HTTPS: 'true' } });
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => t.close());

    it('serves HTTPS with the configured certificate', async () => {
      expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      const { token, basic } = await tokenFor(t);
      const res = await request(`${url}/v5/carrier-configs/`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ api_response: '200', data: [] });
      expect(res.peerFingerprint).toBe(new X509Certificate(fs.readFileSync(certFile)).fingerprint256);

      const issued = await request(`${url}/auth/oauth/token/`, tokenRequest(basic));
      expect(issued.status).toBe(200);
      expect(issued.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    });

    it('does not answer plain HTTP on the TLS port', async () => {
      const plain = await request(`${url.replace('https:', 'http:')}/healthz`).then(
        (res) => res.status,
        (error: NodeJS.ErrnoException) => error.code,
      );
      expect(plain).not.toBe(200);
    });
  });

  describe('with WAYBILL_REQUIRE_HTTPS=true on plain HTTP', () => {
    let t: TestApp;
    let url: string;
    beforeAll(async () => {
      t = await createTestApp({ env: { WAYBILL_REQUIRE_HTTPS: 'true' } });
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => t.close());

    it('refuses a merchant request with 403 and says why', async () => {
      const { token } = await tokenFor(t);
      const res = await request(`${url}/v5/carrier-configs/`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(httpsRequired);
      expect(res.body.message).not.toBe('Key not authorized');
    });

    it('refuses the token endpoint, so credentials are never accepted in clear text', async () => {
      const { basic } = await tokenFor(t);
      const res = await request(`${url}/auth/oauth/token/`, tokenRequest(basic));
      expect(res.status).toBe(403);
      expect(res.body).toEqual(httpsRequired);
    });

    it('ignores X-Forwarded-Proto when the proxy is not trusted', async () => {
      const { token } = await tokenFor(t);
      const res = await request(`${url}/v5/carrier-configs/`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(httpsRequired);
    });
  });

  describe('behind a trusted TLS-terminating proxy (WAYBILL_TRUST_PROXY=true)', () => {
    let t: TestApp;
    let url: string;
    beforeAll(async () => {
      t = await createTestApp({ env: { WAYBILL_REQUIRE_HTTPS: 'true', WAYBILL_TRUST_PROXY: 'true' } });
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    afterAll(() => t.close());

    it('accepts a request the proxy received over HTTPS', async () => {
      const { token } = await tokenFor(t);
      const res = await request(`${url}/v5/carrier-configs/`, {
        headers: { authorization: `Bearer ${token}`, 'x-forwarded-proto': 'https' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ api_response: '200', data: [] });
    });

    it('still refuses what the proxy received over plain HTTP', async () => {
      const { token } = await tokenFor(t);
      const forwarded: Array<Record<string, string>> = [{ 'x-forwarded-proto': 'http' }, {}];
      for (const headers of forwarded) {
        const res = await request(`${url}/v5/carrier-configs/`, { headers: { authorization: `Bearer ${token}`, ...headers } });
        expect(res.status).toBe(403);
        expect(res.body).toEqual(httpsRequired);
      }
    });
  });
});
