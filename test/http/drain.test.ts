import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpDrain } from '../../src/http/drain.js';

describe('HttpDrain', () => {
  let server: http.Server;
  let drain: HttpDrain;
  let url: string;
  const agent = new Agent({ connections: 8 });
  beforeAll(async () => {
    const handler = (_request: http.IncomingMessage, response: http.ServerResponse) => response.end('ok');
    server = http.createServer(handler);
    drain = new HttpDrain(server, handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await agent.close();
    await drain.close(Date.now() + 1000);
  });

  it('holds on to finished responses only until the next pruning, however many requests it served', async () => {
    for (let round = 0; round < 40; round++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const { body } = await request(url, { dispatcher: agent });
          expect(await body.text()).toBe('ok');
        }),
      );
    }
    expect(drain.held).toBeLessThanOrEqual(512);
  });
});
