import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

/** Request format errors are the interface's `4000`, HTTP 400, with a message that says what to send. */
describe('request format', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sandbox' }] });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: string | Buffer | undefined, contentType?: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${acct.token}`, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
      ...(payload === undefined ? {} : { payload }),
    });

  const expectFormatError = (res: LightMyRequestResponse, message: RegExp) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ api_response: '4000', message: expect.stringMatching(message) });
  };

  const stored = async (shipmentId: string) =>
    (await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: shipmentId })).statusCode;

  const shipment = (shipmentId: string, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ shipment_id: shipmentId, tracking_number: 'WB4000001', carrier_reference: 'sandbox', ...extra });

  describe('nesting', () => {
    const limit = () => t.config.bodyLimitBytes;
    const arrays = () => `${'['.repeat(limit() / 2)}${']'.repeat(limit() / 2)}`;
    const objects = () => {
      const levels = Math.floor((limit() - 1) / 6);
      return `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
    };

    it('refuses a body nested as deep as the body limit allows in under 100 ms', async () => {
      for (const [kind, body] of [
        ['arrays', arrays()],
        ['objects', objects()],
        ['in a field', `{"shipment_id":"deep","additional_info":${arrays().slice(0, limit() - 60)}}`],
      ] as const) {
        expect(Buffer.byteLength(body)).toBeLessThanOrEqual(limit());
        const started = performance.now();
        const res = await post('/v5/shipment/', body, 'application/json');
        const elapsed = performance.now() - started;
        expectFormatError(res, /nests deeper than 32 levels/);
        expect(elapsed, kind).toBeLessThan(100);
      }
    });

    it('keeps /healthz answering while deep bodies are refused', async () => {
      const started = performance.now();
      const deep = [arrays(), objects(), arrays()].map((body) => post('/v5/shipment/', body, 'application/json'));
      const health = t.app.inject({ method: 'GET', url: '/healthz' }).then((res) => ({ res, at: performance.now() - started }));
      const [answers, { res, at }] = await Promise.all([Promise.all(deep), health]);
      for (const answer of answers) expect(answer.statusCode).toBe(400);
      expect(res.statusCode).toBe(200);
      expect(at).toBeLessThan(250);
    });

    it('accepts 32 levels and refuses 33, reading brackets inside strings as text', async () => {
      // A carrier's settings are free-form: the body is one level, the settings the others.
      const settings = (levels: number) => JSON.parse(`${'{"a":'.repeat(levels)}"[[[{{{\\"]]"${'}'.repeat(levels)}`);
      const configure = (reference: string, levels: number) =>
        t.admin('POST', `/admin/v1/accounts/${acct.accountUuid}/carrier-configs/`, {
          carrier_reference: reference,
          carrier_id: 'sandbx',
          settings: settings(levels),
        });
      // 32 levels are read, and then checked like any body: the sandbox has no setting "a" (4030, not 4000).
      const read = await configure('nest-32', 31);
      expect(read.statusCode, read.body).toBe(400);
      expect(read.json().api_response).toBe('4030');
      expect(read.json().errors.settings.a).toBeDefined();
      expectFormatError(await configure('nest-33', 32), /^Invalid request format: the body nests deeper than 32 levels$/);
    });

    it('still names the field that holds a NUL character, in a value or a key', async () => {
      const value = await post(
        '/v5/shipment/',
        shipment('nul', { line_items: [{ product_name: 'a' }, { product_name: 'b\u0000' }] }),
        'application/json',
      );
      expect(value.statusCode).toBe(400);
      expect(value.json().errors).toEqual({ line_items: { '1': { product_name: ['Must not contain the NUL character.'] } } });
      const key = await post('/v5/shipment/', shipment('nul', { additional_info: { 'k\u0000': 'x' } }), 'application/json');
      expect(key.json().errors).toEqual({ additional_info: { 'k\u0000': ['Must not contain the NUL character.'] } });
      // The escape nested among others, in upper-case hex where hex has letters (`\u00E9` is é).
      const nested = await post(
        '/v5/shipment/',
        `{"shipment_id":"nul","additional_info":{"a":[{"b":"caf\\u00E9\\t\\u0000"}]}}`,
        'application/json',
      );
      expect(nested.json().errors).toEqual({ additional_info: { a: { '0': { b: ['Must not contain the NUL character.'] } } } });
      expect(await stored('nul')).toBe(404);
    });

    it('keeps a backslash followed by u0000 as the text it is, not a NUL', async () => {
      // The JSON text holds `\\u0000`: an escaped backslash, then the letters u0000.
      const res = await post('/v5/shipment/', shipment('not-nul', { note: 'path C:\\u0000' }), 'application/json');
      expect(res.statusCode, res.body).toBe(200);
      const details = await t.call(acct.token, 'GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: 'not-nul' });
      expect(details.json().data.note).toBe('path C:\\u0000');
    });
  });

  describe('encoding', () => {
    it('refuses invalid UTF-8 and stores nothing', async () => {
      const [head, tail] = shipment('bad-utf8', { note: 'MARK' }).split('MARK');
      for (const bytes of [[0xff], [0xc3], [0xed, 0xa0, 0x80], [0xe2, 0x82]]) {
        const res = await post(
          '/v5/shipment/',
          Buffer.concat([Buffer.from(head), Buffer.from(bytes), Buffer.from(tail)]),
          'application/json',
        );
        expectFormatError(res, /not valid UTF-8/);
      }
      expect(await stored('bad-utf8')).toBe(404);
    });

    it('refuses a \\u escape of half a surrogate pair, in a value or a key, and stores nothing', async () => {
      for (const [id, body] of [
        ['lone-high', '{"shipment_id":"lone-high","note":"a\\ud800x"}'],
        ['lone-low', '{"shipment_id":"lone-low","note":"a\\udc00x"}'],
        ['lone-end', '{"shipment_id":"lone-end","note":"a\\uD83D"}'],
        ['lone-key', '{"shipment_id":"lone-key","additional_info":{"k\\udfff":"x"}}'],
        ['lone-deep', '{"shipment_id":"lone-deep","line_items":[{"product_name":"b"},{"product_name":"\\ude00\\ud83d"}]}'],
      ]) {
        expectFormatError(await post('/v5/shipment/', body, 'application/json'), /half of a surrogate pair/);
        expect(await stored(id)).toBe(404);
      }
      // A pair written as two escapes is one character; an escaped backslash before "ud800" is text.
      const pair = await post('/v5/shipment/', '{"shipment_id":"pair","note":"\\ud83d\\udce6 \\\\ud800"}', 'application/json');
      expect(pair.statusCode, pair.body).toBe(200);
      const details = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'pair' });
      expect(details.json().data.note).toBe('📦 \\ud800');
    });

    it('accepts UTF-8 text, with or without a byte-order mark', async () => {
      const res = await post('/v5/shipment/', `\uFEFF${shipment('utf8-é', { note: 'Grüße, 東京 📦' })}`, 'application/json; charset=utf-8');
      expect(res.statusCode, res.body).toBe(200);
      const details = await t.call(acct.token, 'GET', '/v5/shipment/details/', undefined, { shipment_id: 'utf8-é' });
      expect(details.json().data.note).toBe('Grüße, 東京 📦');
    });
  });

  describe('content coding', () => {
    it('refuses a compressed body saying so, stores nothing, and reads a body sent as identity', async () => {
      const { gzipSync, deflateSync, brotliCompressSync } = await import('node:zlib');
      const json = Buffer.from(shipment('coded'));
      for (const [coding, body] of [
        ['gzip', gzipSync(json)],
        ['deflate', deflateSync(json)],
        ['br', brotliCompressSync(json)],
        ['GZIP', json],
      ] as const) {
        const res = await t.app.inject({
          method: 'POST',
          url: '/v5/shipment/',
          headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json', 'content-encoding': coding },
          payload: body,
        });
        expectFormatError(
          res,
          new RegExp(`^Invalid request format: Content-Encoding ${coding} is not supported, send the body uncompressed$`),
        );
      }
      expect(await stored('coded')).toBe(404);
      const identity = await t.app.inject({
        method: 'POST',
        url: '/v5/shipment/',
        headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'application/json', 'content-encoding': 'identity' },
        payload: json,
      });
      expect(identity.statusCode, identity.body).toBe(200);
      // A request without a body is not concerned.
      const get = await t.app.inject({
        method: 'GET',
        url: '/v5/shipment/details/?shipment_id=coded',
        headers: { authorization: `Bearer ${acct.token}`, 'content-encoding': 'gzip' },
      });
      expect(get.statusCode, get.body).toBe(200);
    });
  });

  describe('numbers', () => {
    it('refuses a number too large for a double (read as Infinity) as a 4030 on its field, and stores nothing', async () => {
      const cases: Array<[string, string, unknown]> = [
        ['huge-weight', '"weight":{"amount":1e400,"unit":"g"}', { weight: { amount: ['Must be of type number or null.'] } }],
        [
          'huge-length',
          '"dimensions":{"length":-1e400,"width":1,"height":1,"unit":"cm"}',
          { dimensions: { length: ['Must be of type number or null.'] } },
        ],
        [
          'huge-cost',
          '"line_items":[{"product_name":"a"},{"product_cost":1E999}]',
          { line_items: { '1': { product_cost: ['Must be of type number or null.'] } } },
        ],
      ];
      for (const [id, field, errors] of cases) {
        const res = await post('/v5/shipment/', `{"shipment_id":"${id}",${field}}`, 'application/json');
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({ api_response: '4030', message: 'validation_error', errors });
        expect(await stored(id)).toBe(404);
      }
      const large = await post('/v5/shipment/', '{"shipment_id":"large-weight","weight":{"amount":1e300,"unit":"g"}}', 'application/json');
      expect(large.statusCode, large.body).toBe(200);
    });

    it('refuses such a number in a free-form object too, where it would be stored as null', async () => {
      const said = ['Must be a number a double can hold: this one is too large.'];
      const created = await post('/v5/shipment/', '{"shipment_id":"info-event"}', 'application/json');
      expect(created.statusCode, created.body).toBe(200);
      const event = (info: string) =>
        post(
          '/v5/events/create/',
          `{"shipment_id":"info-event","events":[{"event":"x","time":"2026-01-01"},{"event":"y","time":"2026-01-02","additional_info":${info}}]}`,
          'application/json',
        );
      for (const [info, errors] of [
        ['{"n":1e400}', { n: said }],
        ['{"a":[1,{"b":-2E+999}]}', { a: { '1': { b: said } } }],
        // No three-digit exponent: 301 digits and e10, 250 digits and .5e99.
        [`{"n":1${'0'.repeat(300)}e10}`, { n: said }],
        [`{"n":${'9'.repeat(250)}.5e99}`, { n: said }],
      ] as const) {
        const res = await event(info);
        expect(res.statusCode, res.body).toBe(400);
        expect(res.json()).toEqual({
          api_response: '4030',
          message: 'validation_error',
          errors: { events: { '1': { additional_info: errors } } },
        });
      }
      const details = await t.app.inject({
        method: 'GET',
        url: '/v5-2-0/shipment/details/?shipment_id=info-event',
        headers: { authorization: `Bearer ${acct.token}` },
      });
      expect(details.json().data.all_events).toEqual([]);
      // Large but finite numbers are numbers like any other.
      const finite = await event('{"n":1e300}');
      expect(finite.statusCode, finite.body).toBe(200);
    });
  });

  describe('content types', () => {
    it('refuses JSON sent as another type with 400 4000 naming application/json, and stores nothing', async () => {
      for (const type of ['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'text/json', 'multipart/form-data; boundary=x']) {
        const res = await post('/v5/shipment/', shipment('as-text'), type);
        expectFormatError(res, /^Invalid request format: unsupported Content-Type, send application\/json$/);
      }
      expectFormatError(await post('/v5/shipment/', shipment('as-text')), /send application\/json/);
      expectFormatError(await post('/v5/shipment/', shipment('as-text'), 'application/x-www-form-urlencoded'), /send application\/json/);
      expect(await stored('as-text')).toBe(404);
    });

    it('refuses a missing or empty body where a JSON object is required', async () => {
      expectFormatError(await post('/v5/shipment/', undefined), /the body is empty, send a JSON object as application\/json/);
      expectFormatError(await post('/v5/shipment/', '', 'application/json'), /the body is empty/);
      expectFormatError(await post('/v5/shipment/trigger-adhoc-update/', undefined), /the body is empty/);
    });

    it('keeps a JSON value that is not an object a validation error', async () => {
      const res = await post('/v5/shipment/', '[]', 'application/json');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ api_response: '4030', errors: { non_field_errors: ['Must be of type object.'] } });
    });

    it('names the form type on the token endpoint, which still reads its form', async () => {
      const basic = `Basic ${Buffer.from(`${acct.clientId}:${acct.clientSecret}`).toString('base64')}`;
      const token = (payload: string, type: string) =>
        t.app.inject({ method: 'POST', url: '/auth/oauth/token/', headers: { authorization: basic, 'content-type': type }, payload });
      const ok = await token('grant_type=client_credentials', 'application/x-www-form-urlencoded');
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().token_type).toBe('Bearer');
      expectFormatError(await token('grant_type=client_credentials', 'text/plain'), /send application\/x-www-form-urlencoded$/);
    });
  });
});
