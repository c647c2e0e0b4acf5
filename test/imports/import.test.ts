import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';

describe('POST /v5/shipment/import/', () => {
  let t: TestApp;
  let acct: TestAccount;
  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ carriers: [{ carrier_reference: 'sb' }] });
  });
  afterAll(() => t.close());

  const upload = (payload: string, contentType = 'text/csv', query = '', token = acct.token) =>
    t.app.inject({
      method: 'POST',
      url: `/v5/shipment/import/${query}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      payload,
    });
  const details = async (shipmentId: string) => t.as(acct)('GET', '/v5-2-0/shipment/details/', undefined, { shipment_id: shipmentId });

  it('creates shipments from CSV: flat columns, address columns, dotted paths, lists and a json column', async () => {
    const csv = [
      'shipment_id,tracking_number,carrier_reference,order_id,recipient_first_name,recipient_city,recipient_country_code,shipment_value.amount,shipment_value.currency,tags,line_items.0.product_name,line_items.0.quantity,json',
      'csv-1,WB2000501,sb,ord-1,Ada,Berlin,DE,19.90,EUR,vip|gift,Book,2,"{""note"": ""Leave at the door"", ""weight"": {""amount"": 1200}}"',
      '"csv-2",,,,"Grace, Jr.","New York",US,,,,,,',
    ].join('\r\n');
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ api_response: '200', data: { rows: 2, created: 2, skipped: [], errors: [] } });

    const first = (await details('csv-1')).json().data;
    expect(first.source).toBe('file upload');
    expect(first.tracking_number).toBe('WB2000501');
    expect(first.carrier_reference).toBe('sb');
    expect(first.order.order_id).toBe('ord-1');
    expect(first.recipient_address).toMatchObject({ first_name: 'Ada', city: 'Berlin', country_code: 'DE', country: 'Germany' });
    expect(first.shipment_value).toEqual({ amount: 19.9, currency: 'EUR' });
    expect(first.tags).toEqual(['vip', 'gift']);
    expect(first.line_items[0]).toMatchObject({ product_name: 'Book', quantity: 2 });
    expect(first.note).toBe('Leave at the door');
    expect(first.weight).toEqual({ amount: 1200, unit: 'g' });
    const second = (await details('csv-2')).json().data;
    expect(second.recipient_address).toMatchObject({ first_name: 'Grace, Jr.', city: 'New York', country_code: 'US' });
    expect(second.tracking_number).toBeNull();
  });

  it('creates shipments from JSON Lines', async () => {
    const lines = [
      JSON.stringify({ shipment_id: 'jl-1', recipient_address: { city: 'Paris', country: 'France' } }),
      '',
      JSON.stringify({ shipment_id: 'jl-2', tracking_number: 'WB1000502', carrier_reference: 'sb' }),
    ].join('\n');
    const res = await upload(`${lines}\n`, 'application/x-ndjson');
    expect(res.json().data).toEqual({ rows: 2, created: 2, skipped: [], errors: [] });
    expect((await details('jl-1')).json().data).toMatchObject({ source: 'file upload', recipient_address: { country_code: 'FR' } });
  });

  it('refuses bad rows one by one with 4030-style errors by field, row and line; stores nothing of them', async () => {
    const csv = [
      'shipment_id,carrier_reference,tracking_number,recipient_country,item_count,colour',
      'bad-ok-1,,,Germany,1,',
      ',,,,,',
      'bad-2,nope,X1,,,',
      'bad-3,,,Atlantis,two,',
      'bad-4,,,,,red',
      '"bad-5',
      'multi',
      'line",,,,,',
      'bad-ok-1,,,,,',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.rows).toBe(7);
    expect(data.created).toBe(2);
    const byRow = Object.fromEntries(data.errors.map((e: { row: number }) => [e.row, e]));
    expect(Object.keys(byRow).map(Number)).toEqual([2, 3, 4, 5, 7]);
    expect(byRow[2]).toEqual({ row: 2, line: 3, shipment_id: null, errors: { shipment_id: ['This field is required.'] } });
    expect(byRow[3]).toMatchObject({ line: 4, shipment_id: 'bad-2', errors: { carrier_reference: [expect.any(String)] } });
    expect(Object.keys(byRow[4].errors)).toEqual(['item_count']);
    expect(byRow[4].errors.item_count).toEqual(['Must be of type integer or null.']);
    expect(byRow[5].errors).toEqual({ colour: ['Unknown field.'] });
    // A quoted cell spanning lines: the next record starts three lines later.
    expect((await details('bad-5\nmulti\nline')).statusCode).toBe(200);
    expect(byRow[7]).toMatchObject({
      line: 10,
      shipment_id: 'bad-ok-1',
      errors: { shipment_id: [expect.stringContaining('already exists')] },
    });
    for (const id of ['bad-2', 'bad-3', 'bad-4']) expect((await details(id)).statusCode, id).toBe(404);
    expect((await details('bad-ok-1')).statusCode).toBe(200);
  });

  it('refuses columns through a prototype and list positions past a list, row by row, changing no object of the process', async () => {
    const csv = [
      'shipment_id,__proto__.polluted,line_items.99999999.quantity,constructor.prototype.polluted,tags.50,json',
      'proto-1,1,,,,',
      'proto-2,,1,,,',
      'proto-3,,,1,,',
      'proto-4,,,,x,',
      'proto-5,,,,,"{""__proto__"":{""polluted"":1},""note"":""n""}"',
      'proto-6,,,,,',
    ].join('\n');
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.created).toBe(1);
    const errors = Object.fromEntries(data.errors.map((e: { shipment_id: string; errors: unknown }) => [e.shipment_id, e.errors]));
    expect(errors).toEqual({
      'proto-1': { '__proto__.polluted': ['Not a field of a shipment.'] },
      'proto-2': { 'line_items.99999999.quantity': ['A list holds no more than 1000 items: position 99999999 is past its end.'] },
      'proto-3': { 'constructor.prototype.polluted': ['Not a field of a shipment.'] },
      'proto-4': { 'tags.50': ['A list holds no more than 50 items: position 50 is past its end.'] },
      'proto-5': { json: ['__proto__ is not a field of a shipment.'] },
    });
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await details('proto-6')).statusCode).toBe(200);
    for (const id of ['proto-1', 'proto-2', 'proto-3', 'proto-4', 'proto-5']) expect((await details(id)).statusCode, id).toBe(404);
    // The service still answers every account as before.
    expect((await t.as(acct)('GET', '/v5/shipment/list/', undefined, { limit: '1' })).json().api_response).toBe('200');
  });

  it('refuses a file that is not UTF-8, and rows with NUL or half a surrogate pair, as POST /v5/shipment/ does', async () => {
    const bytes = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/import/',
      headers: { authorization: `Bearer ${acct.token}`, 'content-type': 'text/csv' },
      payload: Buffer.concat([Buffer.from('shipment_id,note\nutf-1,A'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('Z\n')]),
    });
    expect(bytes.statusCode, bytes.body).toBe(400);
    expect(bytes.json()).toEqual({ api_response: '4000', message: 'Invalid request format: the file is not valid UTF-8' });
    expect((await details('utf-1')).statusCode).toBe(404);

    const nul = await upload('shipment_id,note\nnul-1,a\u0000b\n');
    expect(nul.statusCode, nul.body).toBe(200);
    expect(nul.json().data.errors).toEqual([
      { row: 1, line: 2, shipment_id: 'nul-1', errors: { note: ['Must not contain the NUL character.'] } },
    ]);
    const lines = [
      '{"shipment_id":"sur-1","note":"a\\ud800b"}',
      '{"shipment_id":"sur-2\\udc00"}',
      '{"shipment_id":"sur-3","tags":["\\ud83d\\ude00"]}',
    ];
    const surrogates = await upload(`${lines.join('\n')}\n`, 'application/x-ndjson');
    expect(surrogates.statusCode, surrogates.body).toBe(200);
    const said = 'Must not contain half of a surrogate pair: it is no character.';
    expect(surrogates.json().data).toMatchObject({
      created: 1,
      errors: [
        { row: 1, shipment_id: 'sur-1', errors: { note: [said] } },
        { row: 2, shipment_id: 'sur-2\udc00', errors: { shipment_id: [said] } },
      ],
    });
    for (const id of ['nul-1', 'sur-1']) expect((await details(id)).statusCode, id).toBe(404);
    // Numbers too large for a double, which JSON reads as infinity and a store would keep as null.
    const huge = await upload(
      [
        '{"shipment_id":"inf-1","weight":{"amount":1e400,"unit":"g"}}',
        `{"shipment_id":"inf-2","shipment_value":{"amount":1${'0'.repeat(300)}e10,"currency":"EUR"}}`,
      ].join('\n'),
      'application/x-ndjson',
    );
    expect(huge.statusCode, huge.body).toBe(200);
    const tooLarge = ['Must be a number a double can hold: this one is too large.'];
    expect(huge.json().data.errors).toMatchObject([
      { shipment_id: 'inf-1', errors: { weight: { amount: tooLarge } } },
      { shipment_id: 'inf-2', errors: { shipment_value: { amount: tooLarge } } },
    ]);
    for (const id of ['inf-1', 'inf-2']) expect((await details(id)).statusCode, id).toBe(404);
    // A whole pair is a character like any other.
    expect((await details('sur-3')).json().data.tags).toEqual(['\u{1F600}']);
  });

  it('reads a number cell in decimal notation only, padded or not: 0x10, 1e2, 1_000, Infinity are row errors', async () => {
    const cells = ['0x10', '1e2', '1_000', 'Infinity', '1e309', '-0x1'];
    const csv = ['shipment_id,recipient_country,item_count', 'num-ok, DE , 3 ', ...cells.map((cell, i) => `num-${i},DE,${cell}`)].join(
      '\n',
    );
    const res = await upload(csv);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.created).toBe(1);
    expect(data.errors.map((e: { shipment_id: string; errors: unknown }) => [e.shipment_id, e.errors])).toEqual(
      cells.map((_, i) => [`num-${i}`, { item_count: ['Must be of type integer or null.'] }]),
    );
    expect((await details('num-ok')).json().data.item_count).toBe(3);
    for (const [i] of cells.entries()) expect((await details(`num-${i}`)).statusCode).toBe(404);
  });

  it('reports country and structure errors per row like POST /v5/shipment/', async () => {
    const row = { shipment_id: 'same-rules', recipient_address: { country: 'Atlantis' }, item_count: 'two' };
    const direct = await t.as(acct)('POST', '/v5/shipment/', row);
    expect(direct.statusCode).toBe(400);
    const res = await upload(JSON.stringify(row), 'application/x-ndjson');
    expect(res.json().data.errors[0].errors).toEqual(direct.json().errors);
    const structural = { ...row, item_count: 2 };
    const direct2 = await t.as(acct)('POST', '/v5/shipment/', structural);
    const res2 = await upload(JSON.stringify(structural), 'application/x-ndjson');
    expect(res2.json().data.errors[0].errors).toEqual(direct2.json().errors);
    expect(res2.json().data.errors[0].errors.recipient_address.country).toBeDefined();
  });

  it('skips existing shipment_ids when asked, so an interrupted import can be sent again', async () => {
    const csv = ['shipment_id', 'resume-1', 'resume-2'].join('\n');
    expect((await upload(csv)).json().data.created).toBe(2);
    const again = await upload(`${csv}\nresume-3\n`, 'text/csv', '?skip_existing=true');
    expect(again.json().data).toEqual({
      rows: 3,
      created: 1,
      skipped: [
        { row: 1, line: 2, shipment_id: 'resume-1' },
        { row: 2, line: 3, shipment_id: 'resume-2' },
      ],
      errors: [],
    });
  });

  it('reads JSON Lines errors per line', async () => {
    const res = await upload(['{"shipment_id":"jl-err-1"}', 'not json', '[1]', '{"shipment_id": 5}'].join('\n'), 'application/x-ndjson');
    const data = res.json().data;
    expect(data.created).toBe(1);
    expect(data.errors).toEqual([
      { row: 2, line: 2, shipment_id: null, errors: { non_field_errors: ['Each line must be one JSON object.'] } },
      { row: 3, line: 3, shipment_id: null, errors: { non_field_errors: ['Each line must be one JSON object.'] } },
      { row: 4, line: 4, shipment_id: null, errors: { shipment_id: ['Must be of type string.'] } },
    ]);
  });

  it('links rows of one order_id to one order, later rows updating its fields as one create after another would', async () => {
    const before = await t.as(acct)('POST', '/v5/shipment/', { shipment_id: 'ord-pre-0', order_id: 'ord-pre', order_reference: 'R0' });
    expect(before.statusCode, before.body).toBe(200);
    const csv = [
      'shipment_id,order_id,order_reference,tags',
      'ord-a-1,ord-new,R1,x|y',
      'ord-a-2,ord-new,,y',
      'ord-a-3,ord-new,R3,',
      'ord-a-4,ord-pre,,',
      'ord-a-5,ord-pre,R5,',
    ].join('\n');
    expect((await upload(csv)).json().data).toMatchObject({ created: 5, errors: [] });
    const shown = await Promise.all(
      ['ord-a-1', 'ord-a-2', 'ord-a-3', 'ord-a-4', 'ord-a-5', 'ord-pre-0'].map(async (id) => (await details(id)).json().data),
    );
    const [a1, a2, a3, a4, a5, pre] = shown;
    expect(new Set([a1, a2, a3].map((s) => s.order.order_uuid)).size).toBe(1);
    expect(a3.order.order_reference).toBe('R3');
    expect(a4.order.order_uuid).toBe(pre.order.order_uuid);
    expect(a5.order.order_reference).toBe('R5');
  });

  it("announces each imported shipment to the account's webhook endpoints", async () => {
    const local = await createTestApp({ env: { WAYBILL_ALLOW_PRIVATE_WEBHOOKS: 'true' } });
    try {
      const hooked = await local.account();
      const endpoint = await local.call(hooked.token, 'POST', '/v5/webhooks/', {
        url: 'http://127.0.0.1:9/in',
        events: ['shipment.created'],
      });
      expect(endpoint.statusCode, endpoint.body).toBe(201);
      const res = await local.app.inject({
        method: 'POST',
        url: '/v5/shipment/import/',
        headers: { authorization: `Bearer ${hooked.token}`, 'content-type': 'text/csv' },
        payload: ['shipment_id', 'hook-1', 'hook-2', 'hook-3'].join('\n'),
      });
      expect(res.json().data.created).toBe(3);
      const events = await local.context.database.db
        .selectFrom('webhook_events')
        .innerJoin('shipments', 'shipments.id', 'webhook_events.shipment_row_id')
        .innerJoin('webhook_deliveries', 'webhook_deliveries.event_row_id', 'webhook_events.id')
        .innerJoin('jobs', (join) => join.on('jobs.kind', '=', 'webhook.deliver'))
        .select(['shipments.shipment_id', 'webhook_events.type', 'webhook_events.sequence', 'webhook_deliveries.status'])
        .distinct()
        .orderBy('shipments.shipment_id')
        .execute();
      expect(events).toEqual(
        ['hook-1', 'hook-2', 'hook-3'].map((id) => ({ shipment_id: id, type: 'shipment.created', sequence: 1, status: 'pending' })),
      );
      const jobs = await local.context.database.db.selectFrom('jobs').select('payload').where('kind', '=', 'webhook.deliver').execute();
      expect(jobs).toHaveLength(3);
    } finally {
      await local.close();
    }
  });

  it('answers both of two imports of the same shipments sent at once in opposite orders (no deadlock on PostgreSQL)', async () => {
    for (let round = 0; round < 8; round++) {
      const ids = Array.from({ length: 300 }, (_, i) => `order-race-${round}-${i}`);
      const [one, two] = await Promise.all([
        upload(['shipment_id', ...ids].join('\n')),
        upload(['shipment_id', ...[...ids].reverse()].join('\n')),
      ]);
      expect([one.statusCode, two.statusCode], `round ${round}: ${one.body.slice(0, 200)} ${two.body.slice(0, 200)}`).toEqual([200, 200]);
      expect(one.json().data.created + two.json().data.created).toBe(300);
    }
  });

  it('keeps rows all-or-nothing when two imports of the same shipment_ids run at once', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `race-${i}`);
    const [one, two] = await Promise.all([
      upload(['shipment_id', ...ids].join('\n')),
      upload(['shipment_id', ...ids.reverse()].join('\n')),
    ]);
    const results = [one.json().data, two.json().data];
    expect(results[0].created + results[1].created).toBe(300);
    for (const data of results) {
      expect(data.rows).toBe(300);
      expect(data.created + data.errors.length).toBe(300);
      for (const error of data.errors) expect(error.errors.shipment_id[0]).toContain('already exists');
    }
    const stored = await t.context.database.db
      .selectFrom('shipments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('shipment_id', 'like', 'race-%')
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(300);
  });

  it('accepts files larger than the API body limit, up to 50 MiB', async () => {
    const note = 'n'.repeat(400);
    const rows = Array.from({ length: 3000 }, (_, i) => `big-${i},${note}`);
    const csv = ['shipment_id,note', ...rows].join('\n');
    expect(csv.length).toBeGreaterThan(t.config.bodyLimitBytes);
    const res = await upload(csv);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    expect(res.json().data.created).toBe(3000);
    const tooBig = await upload('x'.repeat(50 * 1024 * 1024 + 1));
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().api_response).toBe('4130');
  });

  it('refuses other content types, and callers without a token; keeps accounts apart', async () => {
    for (const type of ['application/json', 'text/plain']) {
      const res = await upload('{"shipment_id":"x"}', type);
      expect(res.statusCode, type).toBe(400);
      expect(res.json().api_response).toBe('4000');
      expect(res.json().message).toMatch(/unsupported Content-Type, send text\/csv or application\/x-ndjson/);
    }
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/v5/shipment/import/',
      headers: { 'content-type': 'text/csv' },
      payload: 'shipment_id\nanon',
    });
    expect(anonymous.statusCode).toBe(403);
    const other = await t.account();
    const res = await upload('shipment_id\ncsv-1\n', 'text/csv', '', other.token);
    expect(res.json().data.created).toBe(1);
    const unknown = await upload('shipment_id\nx\n', 'text/csv', '?colour=red');
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({ colour: ['Unknown field.'] });
  });
});
