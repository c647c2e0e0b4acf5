import { describe, expect, it } from 'vitest';
import type { Repositories } from '../../src/db/repositories/index.js';
import type { ShipmentRow } from '../../src/db/repositories/shipments.repository.js';
import { TrackingFollowers } from '../../src/domain/shipments/tracking-followers.js';
import type { EventSink } from '../../src/domain/webhooks/webhook-outbox.js';

const repos = {} as Repositories;
const now = '2026-03-30T09:00:00.000Z';

function shipment(status: string, phaseKey: string | null, updatedAt = '2026-03-29T10:00:00.000Z'): ShipmentRow {
  return { id: 7, account_id: 3, shipment_type: 'return', status, phase_key: phaseKey, updated_at: updatedAt } as ShipmentRow;
}

function followers() {
  const followed: ShipmentRow[] = [];
  const announced: string[] = [];
  const events: EventSink = {
    emit: async (_repos, event) => {
      expect(event).toMatchObject({ accountId: 3, shipmentRowId: 7 });
      announced.push(event.type);
    },
    emitMany: async () => undefined,
  };
  const returns = { followTracking: async (_repos: Repositories, row: ShipmentRow) => followed.push(row) };
  return { followers: new TrackingFollowers(returns, events), followed, announced };
}

describe('TrackingFollowers', () => {
  it('lets returns follow a new status or phase and announces the change', async () => {
    const { followers: f, followed, announced } = followers();
    const after = shipment('active', 'in_transit');
    await f.announce(repos, shipment('pending', null), after, now);
    expect(followed).toEqual([after]);
    expect(announced).toEqual(['shipment.updated']);
  });

  it('announces arriving at delivered on its own, once', async () => {
    const { followers: f, announced } = followers();
    await f.announce(repos, shipment('active', 'in_transit'), shipment('delivered', 'delivered'), now);
    expect(announced).toEqual(['shipment.updated', 'shipment.delivered']);
    await f.announce(repos, shipment('delivered', 'delivered'), shipment('delivered', 'delivered', now), now);
    expect(announced).toEqual(['shipment.updated', 'shipment.delivered', 'shipment.updated']);
  });

  it('announces a change of neither status nor phase without asking returns', async () => {
    const { followers: f, followed, announced } = followers();
    await f.announce(repos, shipment('active', 'in_transit'), shipment('active', 'in_transit', now), now);
    expect(followed).toEqual([]);
    expect(announced).toEqual(['shipment.updated']);
  });
});
