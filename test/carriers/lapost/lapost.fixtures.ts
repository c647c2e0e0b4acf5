import fs from 'node:fs';
import path from 'node:path';
import { LaPosteCarrier } from '../../../src/carriers/lapost/lapost.carrier.js';
import type { CarrierToolkit } from '../../../src/carriers/sdk/toolkit.js';
import { CarrierServer, type ReceivedRequest, type ScriptedReply } from '../support/carrier-server.js';
import { localToolkit } from '../support/kit.js';

const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures', 'lapost');

/** A hand-written La Poste answer: its HTTP status and body (see test/carriers/fixtures/lapost/README.md). */
export interface LaPosteFixture {
  status: number;
  body: unknown;
}

export function lapostFixture(name: string): LaPosteFixture {
  return JSON.parse(fs.readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')) as LaPosteFixture;
}

export const TRACKING_PATH = /^\/suivi\/v2\/idships\/[^/]+$/;

/** The numbers of a tracking request's path (`/suivi/v2/idships/A,B`). */
export function numbersOf(request: ReceivedRequest): string[] {
  return decodeURIComponent(request.path.split('/').pop() ?? '').split(',');
}

/** A fixture as a reply of the local server. */
export function reply(fixture: LaPosteFixture): ScriptedReply {
  return { status: fixture.status, body: fixture.body };
}

/**
 * Answers every number from the fixtures that hold it, as La Poste does: one envelope for one number (with the
 * fixture's status), an array for several (HTTP 207 when they differ, 200 when all are found).
 */
export function fixtureRoute(...names: string[]): (request: ReceivedRequest) => ScriptedReply {
  const envelopes = new Map<string, { status: number; envelope: unknown }>();
  for (const name of names) {
    const fixture = lapostFixture(name);
    for (const envelope of Array.isArray(fixture.body) ? fixture.body : [fixture.body]) {
      const e = envelope as { idShip?: string; shipment?: { idShip?: string }; returnCode?: number };
      const id = e.shipment?.idShip ?? e.idShip;
      if (id) envelopes.set(id, { status: Array.isArray(fixture.body) ? (e.returnCode === 200 ? 200 : 404) : fixture.status, envelope });
    }
  }
  return (request) => {
    const asked = numbersOf(request);
    const found = asked.map(
      (n) => envelopes.get(n) ?? { status: 404, envelope: { returnCode: 104, idShip: n, lang: 'en_GB', scope: 'open' } },
    );
    if (asked.length === 1) return { status: found[0].status, body: found[0].envelope };
    return { status: found.every((f) => f.status === 200) ? 200 : 207, body: found.map((f) => f.envelope) };
  };
}

export const TEST_KEY = 'lp-test-key-5f3a9c0e7b21d4a6';

/** A local La Poste server and an adapter pointed at it. */
export async function startLaPoste(
  env: Record<string, string> = {},
  now?: () => number,
): Promise<{ server: CarrierServer; adapter: LaPosteCarrier; kit: CarrierToolkit; close(): Promise<void> }> {
  const server = await new CarrierServer().start();
  const kit = localToolkit('lapost', server.url, env, now);
  const adapter = new LaPosteCarrier(kit);
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
