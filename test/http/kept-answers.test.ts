import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp, usingPostgres } from '../helpers/app.js';
import { fullShipment } from '../shipments/fixtures.js';

/** Listens on the loopback by its host name, and answers the base URL a client would use: `http://localhost:<port>`. */
async function listenByName(t: TestApp): Promise<string> {
  await t.app.listen({ port: 0, host: 'localhost' });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening on a port');
  return `http://localhost:${address.port}`;
}

/**
 * A test app listening by its host name, whose router notes each request it answers in `routed`, with two accounts.
 */
async function appNotingRouted(): Promise<{ t: TestApp; base: string; routed: string[]; acct: TestAccount; other: TestAccount }> {
  const routed: string[] = [];
  const t = await createTestApp({
    setup: (app) =>
      app.addHook('onSend', (request, _reply, payload, done) => {
        routed.push(`${request.method} ${request.url}`);
        done(null, payload);
      }),
  });
  return { t, base: await listenByName(t), routed, acct: await t.account(), other: await t.account() };
}

/** Sets the shipment's note to 'From the other process' through another service on the same data directory. */
async function noteFromAnotherProcess(t: TestApp, acct: TestAccount, uuid: string): Promise<void> {
  const writer = await createTestApp({ env: { WAYBILL_DATA_DIR: t.config.dataDir } });
  try {
    const update = await writer.call(
      acct.token,
      'POST',
      '/v5-2-0/shipment/update/',
      { note: 'From the other process' },
      { shipment_uuid: uuid },
    );
    expect(update.statusCode, update.body).toBe(200);
  } finally {
    await writer.close();
  }
}

/**
 * v5.2 details answered before routing when the process keeps the answer (src/http/kept-answers.ts), over real
 * sockets: the router is not reached then, and the answer is the route's, byte for byte and header for header.
 * A hook on every answer of the router notes what reached it.
 */
describe('shipment details answered before routing', () => {
  let t: TestApp;
  let base: string;
  let acct: TestAccount;
  let other: TestAccount;
  let routed: string[];
  beforeAll(async () => {
    ({ t, base, routed, acct, other } = await appNotingRouted());
  });
  afterAll(async () => {
    await t.close();
  });

  const create = async (shipmentId: string) => {
    const res = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment(shipmentId));
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.shipment_uuid as string;
  };
  const get = (path: string, token = acct.token, init: RequestInit = {}) =>
    fetch(`${base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...init.headers } });
  const detailsPath = (uuid: string) => `/v5-2-0/shipment/details/?shipment_uuid=${uuid}`;
  /** Whether answering `send` reached the router. */
  const reachedRouter = async (send: () => Promise<Response>) => {
    const before = routed.length;
    const res = await send();
    await res.arrayBuffer();
    return routed.length > before;
  };

  it.skipIf(usingPostgres)('answers a kept shipment with the bytes and headers of the route', async () => {
    const uuid = await create('KD-1');
    const first = await get(detailsPath(uuid));
    const firstBody = Buffer.from(await first.arrayBuffer());
    const counted = async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const line =
        /^waybill_http_request_duration_seconds_count\{(?=[^}]*route="\/v5-2-0\/shipment\/details\/")(?=[^}]*status="200")[^}]*\} (\d+)$/m;
      return Number(line.exec(text)?.[1]);
    };
    const countedBefore = await counted();
    const before = routed.length;
    const second = await get(detailsPath(uuid));
    const secondBody = Buffer.from(await second.arrayBuffer());
    expect(routed.length).toBe(before);
    // Counted in the route's request durations, as a routed answer is.
    expect(await counted()).toBe(countedBefore + 1);

    expect(second.status).toBe(200);
    expect(secondBody.equals(firstBody)).toBe(true);
    expect(JSON.parse(secondBody.toString()).data.shipment_uuid).toBe(uuid);
    expect([...second.headers.keys()]).toEqual([...first.headers.keys()]);
    for (const name of ['content-type', 'content-length', 'ratelimit-limit', 'ratelimit-reset', 'connection', 'keep-alive']) {
      expect(second.headers.get(name), name).toBe(first.headers.get(name));
    }
    expect(Number(second.headers.get('ratelimit-remaining'))).toBe(Number(first.headers.get('ratelimit-remaining')) - 1);
    const ids = [first.headers.get('x-request-id'), second.headers.get('x-request-id')];
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids[0]).not.toBe(ids[1]);
  });

  it.skipIf(usingPostgres)('goes to the router once the shipment changed, and keeps the new answer', async () => {
    const uuid = await create('KD-2');
    await (await get(detailsPath(uuid))).arrayBuffer();
    expect(await reachedRouter(() => get(detailsPath(uuid)))).toBe(false);

    const update = await get(`/v5-2-0/shipment/update/?shipment_uuid=${uuid}`, acct.token, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ note: 'Changed since' }),
    });
    expect(update.status, await update.text()).toBe(200);
    const after = await get(detailsPath(uuid));
    expect((await after.json()).data.note).toBe('Changed since');
    expect(await reachedRouter(() => get(detailsPath(uuid)))).toBe(false);
    expect((await (await get(detailsPath(uuid))).json()).data.note).toBe('Changed since');
  });

  it.skipIf(usingPostgres)('answers at once what another process on the same data changed', async () => {
    const uuid = await create('KD-3');
    await (await get(detailsPath(uuid))).arrayBuffer();
    expect(await reachedRouter(() => get(detailsPath(uuid)))).toBe(false);
    await noteFromAnotherProcess(t, acct, uuid);
    expect((await (await get(detailsPath(uuid))).json()).data.note).toBe('From the other process');
  });

  it('hands the request to the router when looking for a kept answer fails', async () => {
    const uuid = await create('KD-5');
    await (await get(detailsPath(uuid))).arrayBuffer();
    const reader = t.context.shipmentReader;
    const keptDetails = reader.keptDetails;
    reader.keptDetails = () => {
      throw new Error('a failure while looking');
    };
    try {
      const before = routed.length;
      const res = await get(detailsPath(uuid));
      expect(res.status).toBe(200);
      expect((await res.json()).data.shipment_uuid).toBe(uuid);
      expect(routed.length).toBe(before + 1);
    } finally {
      reader.keptDetails = keptDetails;
    }
  });

  it("leaves every other request to the router, and never answers another account's shipment", async () => {
    const uuid = await create('KD-4');
    await (await get(detailsPath(uuid))).arrayBuffer();
    const cases: Array<[string, () => Promise<Response>, number]> = [
      ['upper case', () => get(detailsPath(uuid.toUpperCase())), 200],
      ['another parameter', () => get(`${detailsPath(uuid)}&shipment_id=KD-4`), 200],
      ['the v5 shape', () => get(`/v5/shipment/details/?shipment_uuid=${uuid}`), 200],
      ['HEAD', () => get(detailsPath(uuid), acct.token, { method: 'HEAD' }), 200],
      ['no token', () => fetch(`${base}${detailsPath(uuid)}`), 403],
      ['a bad token', () => get(detailsPath(uuid), 'not-a-token'), 403],
      ['another account', () => get(detailsPath(uuid), other.token), 404],
    ];
    for (const [what, send, status] of cases) {
      const before = routed.length;
      const res = await send();
      expect(res.status, what).toBe(status);
      await res.arrayBuffer();
      expect(routed.slice(before), what).toHaveLength(1);
    }
  });
});

describe('the rate limit of details answered before routing', () => {
  let t: TestApp;
  let base: string;
  let acct: TestAccount;
  beforeAll(async () => {
    // The manual clock stands still: every request falls in one second's budget of 3.
    t = await createTestApp({ env: { WAYBILL_RATE_LIMIT_PER_SECOND: '3' } });
    base = await listenByName(t);
    acct = await t.account();
  });
  afterAll(async () => {
    await t.close();
  });

  it('counts each request once, whether answered here or handed to the router, and refuses as the route does', async () => {
    // Made through the router without a socket: it takes one request of this second's budget.
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('KD-RL'));
    expect(created.statusCode, created.body).toBe(200);
    const path = `/v5-2-0/shipment/details/?shipment_uuid=${created.json().data.shipment_uuid}`;
    const get = async () => {
      const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${acct.token}` } });
      return {
        status: res.status,
        remaining: res.headers.get('ratelimit-remaining'),
        retryAfter: res.headers.get('retry-after'),
        body: await res.json(),
      };
    };
    // Not kept yet: counted, then answered by the route with the same decision.
    expect(await get()).toMatchObject({ status: 200, remaining: '1', retryAfter: null });
    // Kept (on the embedded database): counted and answered here.
    expect(await get()).toMatchObject({ status: 200, remaining: '0', retryAfter: null });
    expect(await get()).toMatchObject({ status: 429, remaining: '0', retryAfter: '1', body: { api_response: 429, message: 'Throttled' } });
  });
});

/**
 * The list's first page answered before routing when every shipment on it is kept (src/http/kept-answers.ts), over
 * real sockets: its stamps are read as the route reads them, and the answer is the route's, byte for byte.
 */
describe('list pages answered before routing', () => {
  let t: TestApp;
  let base: string;
  let acct: TestAccount;
  let other: TestAccount;
  let routed: string[];
  beforeAll(async () => {
    ({ t, base, routed, acct, other } = await appNotingRouted());
    for (const id of ['KL-1', 'KL-2', 'KL-3']) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment(id));
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const get = (path: string, token = acct.token) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
  /** The answer to `path`, and whether it reached the router. */
  const answer = async (path: string, token = acct.token) => {
    const before = routed.length;
    const res = await get(path, token);
    const body = Buffer.from(await res.arrayBuffer());
    return { res, body, routed: routed.length > before };
  };
  const ids = (body: Buffer) => (JSON.parse(body.toString()).data as Array<{ shipment_id: string }>).map((s) => s.shipment_id);

  it('answers a kept page with the bytes and headers of the route, its next_page included', async () => {
    for (const path of ['/v5/shipment/list/?limit=2', '/v5/shipment/list/']) {
      const first = await answer(path);
      expect(first.routed, path).toBe(true);
      const second = await answer(path);
      expect(second.routed, path).toBe(false);
      expect(second.res.status).toBe(200);
      expect(second.body.equals(first.body), path).toBe(true);
      expect([...second.res.headers.keys()]).toEqual([...first.res.headers.keys()]);
      for (const name of ['content-type', 'content-length', 'ratelimit-limit', 'ratelimit-reset']) {
        expect(second.res.headers.get(name), name).toBe(first.res.headers.get(name));
      }
      expect(second.res.headers.get('x-request-id')).not.toBe(first.res.headers.get('x-request-id'));
    }
    const page = JSON.parse((await answer('/v5/shipment/list/?limit=2')).body.toString());
    expect(page.data.map((s: { shipment_id: string }) => s.shipment_id)).toEqual(['KL-3', 'KL-2']);
    // The cursor it hands out reaches the rest through the router.
    const rest = await answer(`/v5/shipment/list/?next_page=${page.next_page}`);
    expect(rest.routed).toBe(true);
    expect(ids(rest.body)).toEqual(['KL-1']);
  });

  it('shows a shipment created or changed since, at once', async () => {
    await answer('/v5/shipment/list/?limit=3');
    const created = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment('KL-4'));
    expect(created.statusCode, created.body).toBe(200);
    const afterCreate = await answer('/v5/shipment/list/?limit=3');
    expect(ids(afterCreate.body)).toEqual(['KL-4', 'KL-3', 'KL-2']);

    const uuid = created.json().data.shipment_uuid as string;
    const update = await t.call(acct.token, 'POST', '/v5-2-0/shipment/update/', { note: 'Changed since' }, { shipment_uuid: uuid });
    expect(update.statusCode, update.body).toBe(200);
    const afterUpdate = await answer('/v5/shipment/list/?limit=3');
    expect(JSON.parse(afterUpdate.body.toString()).data[0].note).toBe('Changed since');
    // Rendered by the router once, then kept.
    expect((await answer('/v5/shipment/list/?limit=3')).routed).toBe(false);
  });

  it.skipIf(usingPostgres)('shows at once what another process on the same data changed', async () => {
    const path = '/v5/shipment/list/?limit=1';
    await answer(path);
    const kept = await answer(path);
    expect(kept.routed).toBe(false);
    const uuid = JSON.parse(kept.body.toString()).data[0].shipment_uuid as string;
    await noteFromAnotherProcess(t, acct, uuid);
    expect(JSON.parse((await answer(path)).body.toString()).data[0].note).toBe('From the other process');
  });

  it("leaves every other list request to the router, and never answers another account's page", async () => {
    await answer('/v5/shipment/list/?limit=2');
    expect((await answer('/v5/shipment/list/?limit=2')).routed).toBe(false);
    const cases: Array<[string, string, number, string?]> = [
      ['a leading zero', '/v5/shipment/list/?limit=02', 200],
      ['a limit too large', '/v5/shipment/list/?limit=101', 400],
      ['a limit of zero', '/v5/shipment/list/?limit=0', 400],
      ['a filter', '/v5/shipment/list/?limit=2&shipment_id=KL-1', 200],
      ['the limit twice', '/v5/shipment/list/?limit=2&limit=3', 400],
      ['a bad token', '/v5/shipment/list/?limit=2', 403, 'not-a-token'],
    ];
    for (const [what, path, status, token] of cases) {
      const { res, routed: reached } = await answer(path, token ?? acct.token);
      expect(res.status, what).toBe(status);
      expect(reached, what).toBe(true);
    }
    // Another account has no shipments: its page is the router's 404, twice.
    for (let i = 0; i < 2; i++) {
      const { res, body, routed: reached } = await answer('/v5/shipment/list/?limit=2', other.token);
      expect(res.status).toBe(404);
      expect(reached).toBe(true);
      expect(body.toString()).not.toContain('KL-');
    }
  });

  it('hands the request to the router when reading the page fails', async () => {
    const path = '/v5/shipment/list/?limit=2';
    await answer(path);
    const reader = t.context.shipmentReader;
    const keptFirstPage = reader.keptFirstPage;
    try {
      reader.keptFirstPage = () => {
        throw new Error('a failure while looking');
      };
      const thrown = await answer(path);
      expect(thrown.res.status).toBe(200);
      expect(thrown.routed).toBe(true);
      reader.keptFirstPage = () => Promise.reject(new Error('a failed read'));
      const rejected = await answer(path);
      expect(rejected.res.status).toBe(200);
      expect(ids(rejected.body)).toHaveLength(2);
      expect(rejected.routed).toBe(true);
    } finally {
      reader.keptFirstPage = keptFirstPage;
    }
  });
});

/**
 * A first list page answered again without reading its stamps (FirstPageMemo) while nothing can have changed it:
 * embedded SQLite alone, which tells commits of other connections apart from this process's own writes.
 */
describe.skipIf(usingPostgres)('list pages kept without a read', () => {
  let t: TestApp;
  let base: string;
  let acct: TestAccount;
  let other: TestAccount;
  beforeAll(async () => {
    ({ t, base, acct, other } = await appNotingRouted());
    for (const id of ['KM-1', 'KM-2', 'KM-3']) {
      const res = await t.call(acct.token, 'POST', '/v5/shipment/', fullShipment(id));
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => {
    await t.close();
  });

  const path = '/v5/shipment/list/?limit=2';
  const unread = async () => {
    const text = await (await fetch(`${base}/metrics`)).text();
    return Number(/^waybill_list_first_pages_unread_total (\d+)$/m.exec(text)?.[1]);
  };
  /** The page's shipment_ids and next_page, and whether it was answered without a read. */
  const page = async (token = acct.token) => {
    const before = await unread();
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });
    const body = Buffer.from(await res.arrayBuffer());
    expect(res.status, body.toString()).toBe(200);
    const json = JSON.parse(body.toString()) as { data: Array<{ shipment_id: string }>; next_page: string | null };
    return { body, ids: json.data.map((s) => s.shipment_id), next: json.next_page, unread: (await unread()) > before };
  };
  const create = async (token: string, id: string) => {
    const res = await t.call(token, 'POST', '/v5/shipment/', fullShipment(id));
    expect(res.statusCode, res.body).toBe(200);
  };
  const rowIdOf = async (shipmentId: string) =>
    Number(
      (await t.context.database.db.selectFrom('shipments').select('id').where('shipment_id', '=', shipmentId).executeTakeFirstOrThrow()).id,
    );

  const accountIdOf = async (account: TestAccount) =>
    Number(
      (
        await t.context.database.db
          .selectFrom('accounts')
          .select('id')
          .where('account_uuid', '=', account.accountUuid)
          .executeTakeFirstOrThrow()
      ).id,
    );

  it('answers a page asked again without a read, with the same bytes, until a shipment is made in its account', async () => {
    const first = await page();
    const again = await page();
    expect(again.unread).toBe(true);
    expect(again.body.equals(first.body)).toBe(true);
    // Another account's create leaves it as it is.
    await create(other.token, 'KM-OTHER');
    expect((await page()).unread).toBe(true);

    await create(acct.token, 'KM-4');
    const afterCreate = await page();
    expect(afterCreate.unread).toBe(false);
    expect(afterCreate.ids).toEqual(['KM-4', 'KM-3']);
    expect((await page()).unread).toBe(true);
  });

  it('answers a page asked for again and again with the bytes of the route, and a change at once', async () => {
    const first = await page();
    for (let i = 0; i < 4; i++) expect((await page()).body.equals(first.body)).toBe(true);
    const [latest] = JSON.parse(first.body.toString()).data as Array<{ shipment_uuid: string }>;
    const update = await t.call(
      acct.token,
      'POST',
      '/v5/shipment/update/',
      { note: 'Asked again' },
      { shipment_uuid: latest.shipment_uuid },
    );
    expect(update.statusCode, update.body).toBe(200);
    for (let i = 0; i < 4; i++) {
      const after = await page();
      expect(JSON.parse(after.body.toString()).data[0].note).toBe('Asked again');
      expect(after.ids).toEqual(first.ids);
    }
    const routed = await t.call(acct.token, 'GET', path.replace(/\?.*$/, ''), undefined, { limit: '2' });
    expect(Buffer.from(routed.rawPayload).equals((await page()).body)).toBe(true);
  });

  it('reads again when the shipment after the page is deleted, which ends the page', async () => {
    await create(acct.token, 'KM-5');
    // KM-5, KM-4 on the page; KM-3 read to tell that a next page exists.
    const first = await page();
    expect(first.ids).toEqual(['KM-5', 'KM-4']);
    expect(first.next).not.toBeNull();
    expect((await page()).unread).toBe(true);
    // Everything after the page goes, written by this process's own connection.
    await sql`delete from shipments where account_id = ${await accountIdOf(acct)} and shipment_id not in ('KM-5', 'KM-4')`.execute(
      t.context.database.db,
    );
    const after = await page();
    expect(after.unread).toBe(false);
    expect(after.ids).toEqual(['KM-5', 'KM-4']);
    expect(after.next).toBeNull();
  });

  it('reads again when a shipment is moved into the account', async () => {
    await create(other.token, 'KM-MOVED');
    await page();
    expect((await page()).unread).toBe(true);
    await sql`update shipments set account_id = ${await accountIdOf(acct)} where id = ${await rowIdOf('KM-MOVED')}`.execute(
      t.context.database.db,
    );
    const after = await page();
    expect(after.unread).toBe(false);
    expect(after.ids).toEqual(['KM-MOVED', 'KM-5']);
  });

  it('reads again after a commit of another connection to the same file', async () => {
    await page();
    expect((await page()).unread).toBe(true);
    const file = new Database(`${t.config.dataDir}/waybill.sqlite`);
    try {
      file.prepare('update shipment_versions set version = version + 1 where shipment_row_id = ?').run(await rowIdOf('KM-MOVED'));
    } finally {
      file.close();
    }
    expect((await page()).unread).toBe(false);
    expect((await page()).unread).toBe(true);
  });

  it('reads again once an import made shipments in its account, and not for another account', async () => {
    const upload = async (token: string, ids: string[]) => {
      const csv = ['shipment_id,recipient_city,recipient_country_code', ...ids.map((id) => `${id},Berlin,DE`)].join('\r\n');
      const res = await fetch(`${base}/v5/shipment/import/`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: csv,
      });
      expect(res.status, await res.text()).toBe(200);
    };
    await page();
    expect((await page()).unread).toBe(true);
    await upload(other.token, ['KM-IMPORT-OTHER']);
    expect((await page()).unread).toBe(true);

    await upload(acct.token, ['KM-IMPORT-1', 'KM-IMPORT-2']);
    const after = await page();
    expect(after.unread).toBe(false);
    expect(after.ids).toEqual(['KM-IMPORT-2', 'KM-IMPORT-1']);
    expect((await page()).unread).toBe(true);
  });
});
