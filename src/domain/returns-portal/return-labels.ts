import type { CarrierWaits } from '../../core/carrier-wait.js';
import { RETURN_STATUS } from '../../core/return-status.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { Caller } from '../auth.service.js';
import { type BookingsService, CarrierUnavailableError } from '../bookings/bookings.service.js';
import { DomainError } from '../errors.js';

/** What became of a request for a return's label. */
export type ReturnLabelOutcome =
  /** Booked now (the label may still be on its way: HTTP 299 for the API). */
  | 'booked'
  /** Nothing to do: not approved, already booked, or the account books no returns. */
  | 'skipped'
  /** The carrier refused (the consumer may try again from the status page). */
  | 'refused'
  /** The carrier could not be reached, or a booking of the shipment is in flight: worth trying again. */
  | 'unavailable';

/** The caller a portal acts as for an account: its features, no strict fields. */
export function portalCaller(account: { id: number; account_uuid: string; features: string }): Caller {
  return {
    accountId: account.id,
    accountUuid: account.account_uuid,
    clientId: 'returns-portal',
    features: new Set(JSON.parse(account.features) as string[]),
    strictFields: false,
  };
}

/**
 * Books the label of an approved return through the booking flow, with the account's carrier configuration for
 * return labels: at once when the portal's policy approves a return, when the merchant approves one later (a job),
 * or when the consumer asks on the status page.
 */
export class ReturnLabels {
  constructor(
    private readonly repos: Repositories,
    private readonly bookings: BookingsService,
    private readonly carrierWaits: CarrierWaits,
  ) {}

  /** The account's carrier configuration for return labels; null when it books none (or has no booking). */
  async returnCarrier(caller: Caller): Promise<string | null> {
    if (!caller.features.has('booking')) return null;
    const configs = await this.repos.carrierConfigs.listForAccount(caller.accountId);
    return configs.find((config) => config.booking_return === 1)?.carrier_reference ?? null;
  }

  async book(caller: Caller, returnUuid: string): Promise<ReturnLabelOutcome> {
    const row = await this.repos.returnsPortal.returnWithShipment(caller.accountId, returnUuid);
    if (!row || row.status !== RETURN_STATUS.approved) return 'skipped';
    if (await this.repos.bookings.findByShipment(row.shipment_row_id)) return 'skipped';
    const carrier = await this.returnCarrier(caller);
    if (!carrier) return 'skipped';
    try {
      await this.bookings.book(caller, { shipment_uuid: row.shipment_uuid, carrier_reference: carrier }, this.carrierWaits.begin());
      return 'booked';
    } catch (error) {
      if (error instanceof CarrierUnavailableError || (error instanceof DomainError && error.retryAfterSeconds !== undefined))
        return 'unavailable';
      if (error instanceof DomainError) return 'refused';
      throw error;
    }
  }
}
