import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lazyChildren, lazyRequestLogger } from '../../src/http/request-logger.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

function collector(): { stream: Writable; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { stream, lines };
}

describe('request logs', () => {
  let t: TestApp;
  const { stream, lines } = collector();
  beforeAll(async () => {
    t = await createTestApp({ logStream: stream });
  });
  afterAll(() => t.close());

  it("every line a request writes carries that request's id, as in its x-request-id header", async () => {
    const acct = await t.account();
    const ok = await t.call(acct.token, 'GET', '/v5/carrier-configs/');
    const missing = await t.app.inject({ method: 'GET', url: '/no/such/path/' });
    for (const res of [ok, missing]) {
      const id = res.headers['x-request-id'];
      const own = lines.filter((line) => line.reqId === id);
      expect(own.length, `lines of ${res.statusCode}`).toBeGreaterThan(0);
    }
    const completed = lines.find((line) => line.reqId === ok.headers['x-request-id'] && line.msg === 'request completed');
    expect(completed).toMatchObject({ level: 20, statusCode: 200, url: '/v5/carrier-configs/' });
  });
});

describe('lazyRequestLogger', () => {
  const counting = (level: string) => {
    const { stream, lines } = collector();
    const parent = pino({ level }, stream);
    let children = 0;
    const child = parent.child.bind(parent);
    parent.child = ((...args: Parameters<typeof child>) => {
      children++;
      return child(...args);
    }) as typeof parent.child;
    return { parent, lines, children: () => children };
  };

  it('makes no child logger for a request that writes nothing at an enabled level', () => {
    const { parent, lines, children } = counting('info');
    const log = lazyRequestLogger(parent, { reqId: 'r-1' }, {});
    log.debug('not written');
    log.trace({ a: 1 }, 'not written either');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes through a child with the bindings once a line is enabled', () => {
    const { parent, lines, children } = counting('info');
    const log = lazyRequestLogger(parent, { reqId: 'r-2' }, {});
    log.info({ n: 1 }, 'first');
    log.warn('second');
    log.debug('skipped');
    expect(children()).toBe(1);
    expect(lines.map((line) => [line.reqId, line.msg, line.n])).toEqual([
      ['r-2', 'first', 1],
      ['r-2', 'second', undefined],
    ]);
    expect(log.level).toBe('info');
  });

  it('follows a level set on the request logger, and a route level makes an ordinary child', () => {
    const { parent, lines } = counting('warn');
    const log = lazyRequestLogger(parent, { reqId: 'r-3' }, {});
    log.level = 'debug';
    log.debug('now written');
    expect(lines.map((line) => line.msg)).toEqual(['now written']);
    expect(parent.level).toBe('warn');
    const routeLevel = lazyRequestLogger(parent, { reqId: 'r-4' }, { level: 'trace' });
    routeLevel.trace('route trace');
    expect(lines.map((line) => line.msg)).toEqual(['now written', 'route trace']);
  });

  it("lazyChildren: a logger's children (Fastify's per request) are made when they first write an enabled line", () => {
    const { parent, lines, children } = counting('info');
    lazyChildren(parent);
    const log = parent.child({ reqId: 'r-5' });
    log.debug('not written');
    expect(children()).toBe(0);
    log.info('written');
    expect(children()).toBe(1);
    expect(lines.map((line) => [line.reqId, line.msg])).toEqual([['r-5', 'written']]);
    parent.child({ reqId: 'r-6' }, { level: 'debug' }).debug('a level of its own');
    expect(children()).toBe(2);
  });
});
