import type { Kysely } from 'kysely';
import { PreparedQuery } from '../prepared-query.js';
import type { Database } from '../schema.js';

/**
 * Taken and given back by every round for each configuration it polls: built and compiled once, where building
 * the upsert cost more than running it (docs/performance.md, the mixed load on `start`).
 */
const acquireLease = new PreparedQuery((db, accountId: number, carrierReference: string, holder: string, until: string, now: string) =>
  db
    .insertInto('poll_leases')
    .values({ account_id: accountId, carrier_reference: carrierReference, holder, leased_until: until })
    .onConflict((oc) =>
      oc
        .columns(['account_id', 'carrier_reference'])
        .doUpdateSet((eb) => ({ holder: eb.ref('excluded.holder'), leased_until: eb.ref('excluded.leased_until') }))
        .where((eb) => eb.or([eb('poll_leases.leased_until', '<=', now), eb('poll_leases.holder', '=', holder)])),
    )
    .returning('holder'),
);
const releaseLease = new PreparedQuery((db, accountId: number, carrierReference: string, holder: string) =>
  db
    .deleteFrom('poll_leases')
    .where('account_id', '=', accountId)
    .where('carrier_reference', '=', carrierReference)
    .where('holder', '=', holder),
);

/**
 * Which worker polls a carrier configuration: one at a time, for a lease. A worker that dies holding one
 * leaves it to the others when the lease ends.
 */
export class PollLeasesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Takes the lease of a configuration until `until` for `holder`, if no other holder's lease runs past `now`
   * (a holder renews its own). Returns whether `holder` holds it.
   */
  async acquire(accountId: number, carrierReference: string, holder: string, now: string, until: string): Promise<boolean> {
    const row = await acquireLease.executeTakeFirst(this.db, accountId, carrierReference, holder, until, now);
    return row?.holder === holder;
  }

  /** Gives a configuration back (another worker may poll it at once); nothing if `holder` no longer holds it. */
  async release(accountId: number, carrierReference: string, holder: string): Promise<void> {
    await releaseLease.execute(this.db, accountId, carrierReference, holder);
  }
}
