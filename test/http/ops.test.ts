import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';
import { createTestApp, type TestApp, usingPostgres } from '../helpers/app.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('operations endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /healthz reports the database in use', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: usingPostgres ? 'postgres' : 'sqlite' });
  });

  it('GET /metrics exposes request durations by route and status in the Prometheus format', async () => {
    const acct = await t.account();
    expect((await t.call(acct.token, 'GET', '/v5/carrier-configs/')).statusCode).toBe(200);
    expect((await t.call('not-a-token', 'GET', '/v5/carrier-configs/')).statusCode).toBe(403);

    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.body).toContain('# TYPE waybill_http_request_duration_seconds histogram');
    const counts = res.body.split('\n').filter((line) => line.startsWith('waybill_http_request_duration_seconds_count{'));
    const countOf = (status: string) =>
      counts
        .filter(
          (line) => line.includes('method="GET"') && line.includes('route="/v5/carrier-configs/"') && line.includes(`status="${status}"`),
        )
        .map((line) => Number(line.split(' ').pop()));
    expect(countOf('200')).toEqual([1]);
    expect(countOf('403')).toEqual([1]);
    // Process metrics come along too.
    expect(res.body).toMatch(/^process_cpu_user_seconds_total \d/m);
  });

  it('GET /docs serves the API reference page for the OpenAPI document', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<!doctype html>/i);
    expect(page.body).toContain('swagger-ui');
    const spec = await t.app.inject({ method: 'GET', url: '/docs/json' });
    expect(spec.statusCode).toBe(200);
    expect(spec.json().paths['/v5/carrier-configs/']).toBeDefined();
  });

  it('every response carries its own x-request-id, errors included', async () => {
    const acct = await t.account();
    const responses = await Promise.all([
      t.app.inject({ method: 'GET', url: '/healthz' }),
      t.app.inject({ method: 'GET', url: '/metrics' }),
      t.app.inject({ method: 'GET', url: '/openapi.json' }),
      t.app.inject({ method: 'GET', url: '/docs' }),
      t.call(acct.token, 'GET', '/v5/carrier-configs/'),
      t.call('wrong', 'GET', '/v5/carrier-configs/'),
      t.call(acct.token, 'POST', '/v5/carrier-configs/'),
      t.call(acct.token, 'GET', '/v5/carrier-configs'),
      t.app.inject({ method: 'GET', url: '/no/such/path/' }),
      t.app.inject({ method: 'POST', url: '/auth/oauth/token/' }),
      t.admin('POST', '/admin/v1/accounts/', { name: '' }),
      t.app.inject({ method: 'GET', url: '/admin/v1/accounts/' }),
    ]);
    expect(new Set(responses.map((res) => res.statusCode))).toEqual(new Set([200, 400, 401, 403, 404, 405]));
    const ids = responses.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(uuid);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

/** A fresh PostgreSQL schema for a server started the way production starts it, from a URL. */
async function serverDatabaseUrl(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) return { url: '', drop: async () => {} };
  const schema = `wbt_${randomBytes(6).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE SCHEMA ${schema}`);
  const url = new URL(process.env.DATABASE_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), drop: () => run(`DROP SCHEMA ${schema} CASCADE`) };
}

/** Resolves with the connection error code, or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

describe('graceful stop', () => {
  let dataDir: string;
  let database: { url: string; drop(): Promise<void> };
  let server: RunningServer;
  const adminToken = `wbadm_${randomBytes(16).toString('hex')}`;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-stop-'));
    database = await serverDatabaseUrl();
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      WAYBILL_DATA_DIR: dataDir,
      WAYBILL_ADMIN_TOKEN: adminToken,
      DATABASE_URL: database.url,
      LOG_LEVEL: 'silent',
    });
    server = await startServer(config);
  });
  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lets an in-flight request finish, then closes the port', async () => {
    const port = Number(new URL(server.url).port);
    const admin = (url: string) =>
      fetch(`${server.url}${url}`, { method: 'POST', headers: { authorization: `Bearer ${adminToken}` } }).then(
        (res) => res.json() as Promise<Record<string, string>>,
      );
    const account = await fetch(`${server.url}/admin/v1/accounts/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'graceful' }),
    }).then((res) => res.json() as Promise<{ account_uuid: string }>);
    const creds = await admin(`/admin/v1/accounts/${account.account_uuid}/credentials/`);

    // A slow client: headers and half of the body now, the rest after stop() has begun.
    const body = 'grant_type=client_credentials';
    const socket = net.connect({ port, host: '127.0.0.1' });
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const answered = new Promise<string>((resolve, reject) => {
      socket.once('end', () => resolve(Buffer.concat(received).toString('utf8')));
      socket.once('error', reject);
    });
    const requestArrived = new Promise((resolve) => server.app.server.once('request', resolve));
    socket.write(
      [
        'POST /auth/oauth/token/ HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: Basic ${Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64')}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${body.length}`,
        'Connection: close',
        '',
        body.slice(0, 10),
      ].join('\r\n'),
    );
    await requestArrived;

    let stopped = false;
    const stopping = server.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stopped).toBe(false);

    // write, not end: a client that half-closes its socket abandons the request.
    socket.write(body.slice(10));
    const response = await answered;
    expect(response).toMatch(/^HTTP\/1\.1 200 /);
    expect(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });

    await stopping;
    expect(stopped).toBe(true);
    expect(await tryConnect(port)).toBe('ECONNREFUSED');
  });
});
