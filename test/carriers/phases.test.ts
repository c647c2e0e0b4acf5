import { describe, expect, it } from 'vitest';
import {
  EVENT_KEYS,
  EVENTS,
  eventDescription,
  isEventKey,
  isPhaseKey,
  nextTrackingState,
  PHASE_KEYS,
  PHASE_STATUS,
  type PhaseKey,
  phaseName,
  phaseOfEvent,
  type TrackingState,
} from '../../src/carriers/phases.js';

describe('standard vocabulary', () => {
  it('has the eight phase keys in journey order, each with an English name', () => {
    expect(PHASE_KEYS).toEqual([
      'info_received',
      'in_transit',
      'out_for_delivery',
      'failed_attempt',
      'available_for_pickup',
      'delivered',
      'exception',
      'return_to_sender',
    ]);
    expect(phaseName('failed_attempt')).toBe('Failed delivery attempt');
    for (const key of PHASE_KEYS) expect(phaseName(key)).toMatch(/^[A-Z][a-z ]+$/);
  });

  it('places every event key in a known phase with a description', () => {
    for (const key of EVENT_KEYS) {
      expect(isPhaseKey(phaseOfEvent(key))).toBe(true);
      expect(eventDescription(key).length).toBeGreaterThan(0);
    }
  });

  it('includes the required event keys in their phases', () => {
    const expected: Record<string, PhaseKey> = {
      label_created: 'info_received',
      picked_up: 'in_transit',
      arrived_at_facility: 'in_transit',
      departed_facility: 'in_transit',
      in_customs: 'in_transit',
      customs_cleared: 'in_transit',
      out_for_delivery: 'out_for_delivery',
      delivery_attempt_failed: 'failed_attempt',
      available_for_pickup: 'available_for_pickup',
      delivered: 'delivered',
      delivered_to_neighbour: 'delivered',
      delivered_to_pickup_point: 'delivered',
      address_issue: 'exception',
      damaged: 'exception',
      lost: 'exception',
      returning_to_sender: 'return_to_sender',
      returned_to_sender: 'return_to_sender',
    };
    for (const [key, phase] of Object.entries(expected)) {
      expect(isEventKey(key)).toBe(true);
      expect(EVENTS[key as keyof typeof EVENTS].phase).toBe(phase);
    }
  });

  it('guards keys, including inherited property names', () => {
    expect(isPhaseKey('delivered')).toBe(true);
    expect(isPhaseKey('toString')).toBe(false);
    expect(isEventKey('constructor')).toBe(false);
    expect(isEventKey(42)).toBe(false);
  });

  it('maps phases to shipment statuses', () => {
    expect(PHASE_STATUS).toEqual({
      info_received: 'pending',
      in_transit: 'active',
      out_for_delivery: 'active',
      failed_attempt: 'active',
      available_for_pickup: 'active',
      delivered: 'delivered',
      exception: 'active',
      return_to_sender: 'return',
    });
  });
});

describe('nextTrackingState', () => {
  const at = (status: TrackingState['status'], phase_key: PhaseKey | null): TrackingState => ({ status, phase_key });

  it('moves forward and sets the status of the new phase', () => {
    expect(nextTrackingState(at('pending', null), { phase_key: 'info_received' })).toEqual({
      status: 'pending',
      phase_key: 'info_received',
      changed: true,
    });
    expect(nextTrackingState(at('pending', 'info_received'), { phase_key: 'in_transit' })).toEqual({
      status: 'active',
      phase_key: 'in_transit',
      changed: true,
    });
    expect(nextTrackingState(at('active', 'out_for_delivery'), { phase_key: 'delivered' })).toEqual({
      status: 'delivered',
      phase_key: 'delivered',
      changed: true,
    });
  });

  it('moves freely between the phases of an active journey', () => {
    expect(nextTrackingState(at('active', 'failed_attempt'), { phase_key: 'out_for_delivery' })).toMatchObject({
      phase_key: 'out_for_delivery',
      changed: true,
    });
    expect(nextTrackingState(at('active', 'exception'), { phase_key: 'in_transit' })).toMatchObject({ phase_key: 'in_transit' });
  });

  it('never moves back to information received once moving', () => {
    expect(nextTrackingState(at('active', 'in_transit'), { phase_key: 'info_received' })).toEqual({
      status: 'active',
      phase_key: 'in_transit',
      changed: false,
    });
  });

  it('keeps delivered against any later phase unless the carrier flags a correction', () => {
    for (const phase_key of PHASE_KEYS.filter((key) => key !== 'delivered')) {
      expect(nextTrackingState(at('delivered', 'delivered'), { phase_key })).toEqual({
        status: 'delivered',
        phase_key: 'delivered',
        changed: false,
      });
    }
    expect(nextTrackingState(at('delivered', 'delivered'), { phase_key: 'return_to_sender', correction: true })).toEqual({
      status: 'return',
      phase_key: 'return_to_sender',
      changed: true,
    });
    expect(nextTrackingState(at('delivered', 'delivered'), { phase_key: 'in_transit', correction: true })).toMatchObject({
      status: 'active',
      phase_key: 'in_transit',
    });
  });

  it('keeps a return when the carrier reports the delivery back to the sender', () => {
    expect(nextTrackingState(at('return', 'return_to_sender'), { phase_key: 'delivered' })).toMatchObject({
      status: 'return',
      phase_key: 'return_to_sender',
      changed: false,
    });
  });

  it('moves an active shipment to return', () => {
    expect(nextTrackingState(at('active', 'available_for_pickup'), { phase_key: 'return_to_sender' })).toEqual({
      status: 'return',
      phase_key: 'return_to_sender',
      changed: true,
    });
  });

  it('ignores events without a phase', () => {
    expect(nextTrackingState(at('active', 'in_transit'), { phase_key: null })).toEqual({
      status: 'active',
      phase_key: 'in_transit',
      changed: false,
    });
    expect(nextTrackingState(at('delivered', 'delivered'), { phase_key: null, correction: true })).toMatchObject({ changed: false });
  });

  it('holds a final phase even when housekeeping changed the status', () => {
    expect(nextTrackingState(at('inactive', 'delivered'), { phase_key: 'return_to_sender' })).toEqual({
      status: 'inactive',
      phase_key: 'delivered',
      changed: false,
    });
  });

  it('holds a final status even without a phase on record', () => {
    expect(nextTrackingState(at('delivered', null), { phase_key: 'in_transit' })).toMatchObject({ status: 'delivered', changed: false });
  });

  it('revives an expired or inactive shipment when the carrier reports again', () => {
    expect(nextTrackingState(at('expired', 'in_transit'), { phase_key: 'out_for_delivery' })).toEqual({
      status: 'active',
      phase_key: 'out_for_delivery',
      changed: true,
    });
    expect(nextTrackingState(at('inactive', 'in_transit'), { phase_key: 'in_transit' })).toEqual({
      status: 'active',
      phase_key: 'in_transit',
      changed: true,
    });
  });
});
