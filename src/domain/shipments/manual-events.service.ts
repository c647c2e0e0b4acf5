import { createHash } from 'node:crypto';
import { EVENT_KEYS, type EventKey, isEventKey, phaseOfEvent } from '../../carriers/phases.js';
import type { Clock } from '../../clock.js';
import { isValidTimeZone, parseEventTime } from '../../core/event-time.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Caller } from '../auth.service.js';
import { FieldErrorCollector } from '../errors.js';
import { type NewEvent, storeEvents } from './event-recorder.js';
import { findShipment, type ShipmentIdentifier } from './shipment-identifier.js';
import type { ShipmentWriteFollowers } from './tracking-followers.js';

export interface ManualEventInput {
  event: string;
  event_key?: string;
  time: string;
  timezone?: string;
  location?: Record<string, string | null> & { place?: string };
  additional_info?: Record<string, unknown>;
}

/**
 * An event's `additional_info` is shown in every details and list page of its shipment, and a shipment gathers many
 * events: 4 KiB of JSON each keeps one shipment's answer bounded, and is ample for a merchant's extra fields.
 */
const MAX_ADDITIONAL_INFO_BYTES = 4096;

/** Tracking events a merchant adds by hand (POST /v5/events/create/). */
export class ManualEventsService {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly carrierName: (carrierId: string | null) => string | null,
    /**
     * Told in the same transaction when new events changed what the shipment shows: what they add to the row (the
     * prediction) is written with the events' changes, then they are told the change (returns follow it, webhooks
     * announce it).
     */
    private readonly followers: ShipmentWriteFollowers,
  ) {}

  async create(
    caller: Caller,
    identifier: ShipmentIdentifier,
    events: ManualEventInput[],
  ): Promise<{ shipment_uuid: string; events_created: number }> {
    const errors = new FieldErrorCollector();
    const prepared: NewEvent[] = [];
    events.forEach((input, index) => {
      const path = ['events', index];
      if (input.timezone !== undefined && !isValidTimeZone(input.timezone))
        errors.add([...path, 'timezone'], 'Enter an IANA timezone, e.g. Europe/Berlin.');
      if (input.event_key !== undefined && !isEventKey(input.event_key)) {
        errors.add([...path, 'event_key'], `Unknown event_key. Standard keys: ${EVENT_KEYS.join(', ')}.`);
      }
      const time = parseEventTime(input.time, { timezone: input.timezone && isValidTimeZone(input.timezone) ? input.timezone : null });
      if (!time.ok) errors.add([...path, 'time'], `Enter a date or an ISO 8601 date-time (${time.reason}).`);
      const additionalInfo = JSON.stringify(input.additional_info ?? {});
      if (Buffer.byteLength(additionalInfo) > MAX_ADDITIONAL_INFO_BYTES) {
        errors.add([...path, 'additional_info'], `Ensure this object is no more than ${MAX_ADDITIONAL_INFO_BYTES} bytes as JSON.`);
      }
      if (!time.ok || !errors.empty) return;
      const eventKey = input.event_key as EventKey | undefined;
      const place = input.location?.place ?? '';
      prepared.push({
        dedupe_key: createHash('sha256')
          .update(JSON.stringify(['manual', time.time.precision, time.time.utc, input.event, place]))
          .digest('hex'),
        origin: 'manual',
        event: input.event,
        event_key: eventKey ?? null,
        phase_key: eventKey ? phaseOfEvent(eventKey) : null,
        time_text: time.time.text,
        time_utc: time.time.utc,
        timezone: input.timezone ?? null,
        carrier_name: null,
        location: input.location ? JSON.stringify({ ...input.location, place }) : null,
        additional_info: additionalInfo,
        sequence: index,
      });
    });
    return this.repos.transaction(async (repos) => {
      const shipment = await findShipment(repos, caller.accountId, identifier);
      errors.throwIfAny();
      const name = this.carrierName(shipment.carrier_id);
      const now = this.clock.now().toISOString();
      const stored = await storeEvents(
        repos,
        shipment,
        prepared.map((e) => ({ ...e, carrier_name: name })),
        now,
      );
      if (stored.changes) {
        // The row as read under the lock, and the row with the events' changes and what the followers add, in one write.
        const before = stored.shipment;
        const after = await this.followers.prepare(repos, before, { ...before, ...stored.changes }, now);
        const written = await repos.shipments.update(
          before.id,
          after.body === before.body ? stored.changes : { ...stored.changes, body: after.body },
        );
        await this.followers.announce(repos, before, written, now);
      }
      return { shipment_uuid: shipment.shipment_uuid, events_created: stored.created };
    });
  }
}
