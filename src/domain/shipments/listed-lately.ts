import { type Clock, nowMs } from '../../clock.js';

/**
 * The accounts this process has answered a list page for lately, and when: a create keeps its shipment's list
 * rendering for these alone (ShipmentReader.keepCreated). Forgetting is always safe, since a create that keeps
 * nothing leaves the list to render its shipment, so the memory is bounded by starting over when full.
 */
export class ListedLately {
  private readonly listedAt = new Map<number, number>();

  constructor(
    private readonly clock: Clock,
    /** How long after an account's last list page it counts as listing. */
    private readonly windowMs = 15 * 60_000,
    /** Accounts remembered at most; a new one beyond them clears the others. */
    private readonly max = 100_000,
  ) {}

  /** The account has been answered a list page now. */
  note(accountId: number): void {
    if (this.listedAt.size >= this.max && !this.listedAt.has(accountId)) this.listedAt.clear();
    this.listedAt.set(accountId, nowMs(this.clock));
  }

  /** Whether the account's last list page is at most the window old. */
  has(accountId: number): boolean {
    const listed = this.listedAt.get(accountId);
    return listed !== undefined && nowMs(this.clock) - listed <= this.windowMs;
  }

  /** Accounts remembered now, lately or not. */
  get size(): number {
    return this.listedAt.size;
  }
}
