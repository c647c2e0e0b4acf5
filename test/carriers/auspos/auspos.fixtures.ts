import fs from 'node:fs';
import path from 'node:path';
import { trackItemsAnswer } from '../../../src/carriers/auspos/auspos.answers.js';
import { AusPostCarrier } from '../../../src/carriers/auspos/auspos.carrier.js';
import type { AusPostTrackingResult } from '../../../src/carriers/auspos/auspos.payload.js';
import type { CarrierLimits } from '../../../src/carriers/sdk/limits.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'auspos');

/** A hand-written Australia Post answer: its HTTP status and body (see test/carriers/fixtures/auspos/README.md). */
export interface AusPostFixture {
  status: number;
  body: unknown;
}

export function auspostFixture(name: string): AusPostFixture {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as AusPostFixture;
}

export const TRACK_PATH = '/shipping/v1/track';

export const SETTINGS = { api_key: 'ap-test-key-7d41c9e2b08f', password: 'ap-test-password-3e9a51f0', account_number: '0009876543' };

/** The ids of a tracking request (`?tracking_ids=A,B`). */
export function idsOf(request: ReceivedRequest): string[] {
  return (request.query.get('tracking_ids') ?? '').split(',').filter(Boolean);
}

/** A fixture as a reply of the local server. */
export function reply(fixture: AusPostFixture): ScriptedReply {
  return { status: fixture.status, body: fixture.body };
}

/**
 * Answers the ids asked from the fixtures that hold them, in the order asked, as Australia Post does; an id no
 * fixture holds is answered `ESB-10001` (not found).
 */
export function fixtureRoute(...names: string[]): (request: ReceivedRequest) => ScriptedReply {
  const entries = new Map<string, AusPostTrackingResult>();
  for (const name of names) {
    const body = auspostFixture(name).body as { tracking_results?: Array<AusPostTrackingResult & { tracking_id: string }> };
    for (const entry of body.tracking_results ?? []) entries.set(entry.tracking_id, entry);
  }
  return (request) => ({ status: 200, body: trackItemsAnswer(idsOf(request), (id) => entries.get(id)) });
}

/** The adapter with Australia Post's ten calls a minute lifted, to observe batching without waiting six seconds a call. */
export class UnpacedAusPost extends AusPostCarrier {
  override readonly limits: CarrierLimits = {
    ...new AusPostCarrier(localToolkit('auspos', 'http://127.0.0.1:9')).limits,
    requests_per_second: 1000,
  };
}

/**
 * A clock 10,000 times faster than the wall clock: ten calls a minute become one every 0.6 ms, so a test's next
 * call waits at most the gate's next look at the clock (a second), not six seconds.
 */
export function fastClock(): () => number {
  const start = Date.now();
  return () => start + (Date.now() - start) * 10_000;
}

/** A local Australia Post and an adapter pointed at it (the real limits, on a fast clock unless `unpaced`). */
export async function startAusPost(
  options: { env?: Record<string, string>; now?: () => number; unpaced?: boolean } = {},
): Promise<{ server: CarrierServer; adapter: AusPostCarrier; kit: CarrierToolkit; close(): Promise<void> }> {
  const server = await new CarrierServer().start();
  const kit = localToolkit('auspos', server.url, options.env, options.now ?? fastClock());
  const adapter = options.unpaced ? new UnpacedAusPost(kit) : new AusPostCarrier(kit);
  return {
    server,
    adapter,
    kit,
    async close() {
      await kit.http.close();
      await server.close();
    },
  };
}
