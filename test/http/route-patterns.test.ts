import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { type RunningServer, startServer } from '../../src/server.js';

/** One request written as is on a socket to `localhost`, and the status line and body of its answer. */
function ask(port: number, requestLine: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, 'localhost');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('utf8');
    });
    socket.on('error', reject);
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);
      resolve({ status, body: received.slice(received.indexOf('\r\n\r\n') + 4) });
    });
    socket.write(`${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
  });
}

/**
 * Paths holding what a route's pattern gives a meaning to (`*`, `:name`, `(…)`) are paths like any other: no route of
 * ours, so 404 in the envelope, with or without a token, never an error of the router reading them as patterns.
 */
describe('paths that look like route patterns', () => {
  let server: RunningServer;
  let port: number;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-patterns-'));
    server = await startServer(loadConfig({ WAYBILL_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }));
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['/v5/shipment/*', '/v5/*/list/', '/v5/shipment/:a(', '/v5/shipment/:id', '/v5/shipment/list(x)', '/v5/carrier-configs*'])(
    'answers GET %s with 404 4040',
    async (target) => {
      const answer = await ask(port, `GET ${target} HTTP/1.1`);
      expect(answer.status, answer.body).toBe(404);
      expect(JSON.parse(answer.body)).toEqual({ api_response: '4040', message: `Not found: GET ${target}` });
    },
  );

  it('answers OPTIONS * with 404 4040, and still says 405 and the trailing slash where they apply', async () => {
    const star = await ask(port, 'OPTIONS * HTTP/1.1');
    expect(star.status, star.body).toBe(404);
    expect(JSON.parse(star.body).api_response).toBe('4040');
    expect((await ask(port, 'DELETE /v5/carrier-configs/ HTTP/1.1')).status).toBe(405);
    expect(JSON.parse((await ask(port, 'GET /v5/carrier-configs HTTP/1.1')).body).message).toContain('trailing slash');
  });
});
