import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { standardReturn } from '../returns/fixtures.js';
import { type ConsoleBrowser, signIn, visibleText } from './console-client.js';

describe('console: returns', () => {
  let t: TestApp;
  let acct: TestAccount;
  let other: TestAccount;
  let browser: ConsoleBrowser;
  const uuids = new Map<string, string>();

  async function createReturn(account: TestAccount, shipmentId: string): Promise<string> {
    const res = await t.call(account.token, 'POST', '/v5/return/', standardReturn(shipmentId));
    expect(res.statusCode, res.body).toBe(200);
    const uuid = res.json().data.return_ticket.return_uuid as string;
    uuids.set(shipmentId, uuid);
    return uuid;
  }

  const statusOf = async (account: TestAccount, returnUuid: string): Promise<string> =>
    (await t.call(account.token, 'POST', '/v5/return/update/', { return_uuid: returnUuid })).json().data.return_status;

  beforeAll(async () => {
    t = await createTestApp();
    acct = await t.account({ features: ['returns'] });
    other = await t.account({ features: ['returns'] });
    for (const id of ['R-1', 'R-2', 'R-3', 'R-4']) {
      t.clock.advance(1_000);
      await createReturn(acct, id);
    }
    await createReturn(other, 'THEIRS-1');
    browser = await signIn(t, acct);
  });
  afterAll(() => t.close());

  it('lists the account’s returns newest first with their state and the actions their state allows', async () => {
    const res = await browser.get('/console/returns/');
    expect(res.statusCode).toBe(200);
    const rows = [...res.body.matchAll(/<tr data-return="([0-9a-f-]{36})">/g)].map((m) => m[1]);
    expect(rows).toEqual(['R-4', 'R-3', 'R-2', 'R-1'].map((id) => uuids.get(id)));
    const text = visibleText(res.body);
    expect(text).toContain('RMA-R-1');
    expect(text).toContain('pending approval');
    expect(text).toContain('45.50');
    expect(text).not.toContain('RMA-THEIRS-1');
    expect(res.body.match(/>Approve<\/button>/g)).toHaveLength(4);
    expect(res.body.match(/>Reject<\/button>/g)).toHaveLength(4);
  });

  it('approves a return: its state changes and the list says so', async () => {
    const uuid = uuids.get('R-1')!;
    const res = await browser.post(`/console/returns/${uuid}/status/`, { return_status: 'approved' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/console/returns/?changed=RMA-R-1&to=approved');
    expect(await statusOf(acct, uuid)).toBe('approved');
    const page = await browser.get(res.headers.location as string);
    expect(visibleText(page.body)).toContain('Return RMA-R-1 is now approved.');
    // Approved: no approve or reject any more.
    const row = page.body.slice(page.body.indexOf(`data-return="${uuid}"`)).split('</tr>')[0];
    expect(row).toContain('approved');
    expect(row).not.toContain('>Approve</button>');
    // The status filter.
    const approved = await browser.get('/console/returns/?status=approved');
    expect([...approved.body.matchAll(/<tr data-return="([0-9a-f-]{36})">/g)].map((m) => m[1])).toEqual([uuid]);
  });

  it('rejects a return with a reason; without one the service’s message is shown and nothing changes', async () => {
    const uuid = uuids.get('R-2')!;
    const missing = await browser.post(`/console/returns/${uuid}/status/`, { return_status: 'rejected' });
    expect(missing.statusCode).toBe(400);
    expect(visibleText(missing.body)).toContain('The return could not be rejected.');
    expect(visibleText(missing.body)).toContain('reject_reason: Required to reject a return.');
    expect(await statusOf(acct, uuid)).toBe('pending approval');
    const res = await browser.post(`/console/returns/${uuid}/status/`, { return_status: 'rejected', reject_reason: 'Worn' });
    expect(res.statusCode).toBe(303);
    expect(await statusOf(acct, uuid)).toBe('rejected');
    expect(visibleText((await browser.get('/console/returns/')).body)).toContain('Worn');
  });

  it('shows the transition table’s refusal when the state does not allow the change', async () => {
    const uuid = uuids.get('R-2')!; // rejected above
    const res = await browser.post(`/console/returns/${uuid}/status/`, { return_status: 'approved' });
    expect(res.statusCode).toBe(400);
    expect(visibleText(res.body)).toContain('The return could not be approved.');
    expect(visibleText(res.body)).toContain(
      'return_status: Cannot move a return from "rejected" to "approved". Allowed next states: "archived".',
    );
    expect(await statusOf(acct, uuid)).toBe('rejected');
    // Only approve and reject are console actions.
    const other = await browser.post(`/console/returns/${uuids.get('R-3')}/status/`, { return_status: 'cancelled' });
    expect(other.statusCode).toBe(400);
    expect(visibleText(other.body)).toContain('return_status: Must be one of: approved, rejected.');
    expect(await statusOf(acct, uuids.get('R-3')!)).toBe('pending approval');
  });

  it('refuses a change without the session’s form token, or with another session’s', async () => {
    const uuid = uuids.get('R-3')!;
    const without = await browser.post(`/console/returns/${uuid}/status/`, { return_status: 'approved' }, { withToken: false });
    expect(without.statusCode).toBe(403);
    expect(visibleText(without.body)).toContain('Form refused');
    const otherSession = await signIn(t, other);
    const foreign = await browser.post(
      `/console/returns/${uuid}/status/`,
      { return_status: 'approved', csrf: otherSession.csrf },
      { withToken: false },
    );
    expect(foreign.statusCode).toBe(403);
    expect(await statusOf(acct, uuid)).toBe('pending approval');
  });

  it('answers another account’s return with the not-found page and leaves it alone', async () => {
    const theirs = uuids.get('THEIRS-1')!;
    for (const next of ['approved', 'rejected']) {
      const res = await browser.post(`/console/returns/${theirs}/status/`, { return_status: next, reject_reason: 'x' });
      expect(res.statusCode).toBe(404);
      expect(visibleText(res.body)).toContain('No return matches the identifier');
    }
    expect(await statusOf(other, theirs)).toBe('pending approval');
    expect((await browser.post('/console/returns/not-a-uuid/status/', { return_status: 'approved' })).statusCode).toBe(404);
  });

  it('says so when the account has no returns feature', async () => {
    const plain = await t.account();
    const res = await (await signIn(t, plain)).get('/console/returns/');
    expect(res.statusCode).toBe(403);
    expect(visibleText(res.body)).toContain('Feature not enabled: returns');
  });
});
