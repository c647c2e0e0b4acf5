import type SqliteDatabase from 'better-sqlite3';

/** The connection as the group needs it: statements run through the driver's tracking (commits are noted). */
export interface GroupConnection {
  readonly raw: SqliteDatabase.Database;
  prepare(sql: string): { run(parameters: readonly unknown[]): unknown };
}

const NO_PARAMETERS: readonly unknown[] = [];

/** How long after two writes overlapped the service counts as busy (WritesComing.busy). */
const BUSY_MS = 1000;

/**
 * Writes on their way to the connection, which an open group may wait a moment for (the commit window): the HTTP
 * server announces each request that may write (every method but GET, HEAD and OPTIONS) until its answer ends.
 */
export class WritesComing {
  private count = 0;
  /** When a write was last announced while another was in flight (performance.now()). */
  private lastOverlap = Number.NEGATIVE_INFINITY;

  constructor(
    /** How long a group may stay open for writes announced (ms); 0 commits every group as soon as no one queues. */
    readonly windowMs: number,
  ) {}

  /** Announces a write on its way; the function returned ends the announcement (once, however often called). */
  announce(): () => void {
    if (this.count > 0) this.lastOverlap = performance.now();
    this.count++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.count--;
    };
  }

  /** Writes announced and not yet ended. */
  get inFlight(): number {
    return this.count;
  }

  /**
   * Whether writes have overlapped in the last second: requests written independently of each other (many
   * merchants, or one client sending several at once), so that more are likely within a window. One client
   * writing one request after another never overlaps itself.
   */
  get busy(): boolean {
    return performance.now() - this.lastOverlap < BUSY_MS;
  }
}

class Group {
  /** Leases of the connection that ran in this group's transaction and have ended. */
  leases = 0;
  /** Transactions of the query layer that ended in this group without being rolled back. */
  transactions = 0;
  /** When its commit window ends (performance.now()), once it waits for announced writes. */
  windowEnds = Number.POSITIVE_INFINITY;
  readonly done: Promise<void>;
  resolve!: () => void;
  reject!: (error: Error) => void;

  constructor() {
    this.done = new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    // Every lease of the group awaits `done`; this only keeps a failed group from counting as unhandled first.
    this.done.catch(() => {});
  }
}

/**
 * Group commit on the one SQLite connection: write transactions that queue for the connection together share
 * one SQLite transaction, one commit (one write of each page they share to the log) and one sync. Each
 * transaction of the query layer after the group's first is a savepoint inside the group's transaction, so a
 * transaction that fails is rolled back alone and the others stay. The first is not: rolling it back is rolling
 * back the SQLite transaction, and a savepoint would make SQLite copy every page it changes to a journal only to
 * discard it (beyond 64 KiB, which a create reaches, in a temporary file, unless temporary storage is in memory
 * as on the service's connection). Every lease of the connection that ran inside the group (its transactions,
 * and any statement run meanwhile, reads included) is finished only once the group has committed, and fails with
 * it: nothing a lease wrote or read is handed back before the commit that makes it true, and the durable driver
 * then waits for that commit's sync as for any other.
 *
 * The group stays open while another caller waits for the connection, up to `maxLeases` leases. At the end of a
 * lease no one waits behind, it commits at once unless writes are coming (`WritesComing`): while writes overlap
 * (independent clients) it stays open to the end of the commit window, for the writes that arrive meanwhile;
 * otherwise only while more writes are announced than it holds transactions. A commit writes each page it changed
 * to the log with two system calls, and every commit is synced, so writes that share a commit cost far less
 * (docs/performance.md). One client writing one request after another never overlaps itself: each of its writes
 * commits at once, as without groups, and the write lock of the file is held no longer.
 */
export class CommitGroups {
  private open: Group | null = null;
  /** Ends the open group's commit window. */
  private windowTimer: NodeJS.Timeout | null = null;
  /** The transaction running now is the group's first (it holds no savepoint). */
  private first = false;
  /** Transactions of the query layer that committed, alone or in a group, and commits of SQLite that held them. */
  readonly counts = { transactions: 0, commits: 0 };

  constructor(
    private readonly connection: GroupConnection,
    private readonly maxLeases = 32,
    private readonly coming: WritesComing | null = null,
    /** Whether a lease of the connection is under way (a statement or a transaction between its awaits). */
    private readonly leased: () => boolean = () => false,
  ) {}

  /** Begins a transaction of the query layer: in the open group, or in a new one. */
  begin(): void {
    // SQLite rolls a transaction back by itself after some errors (a full disk, an I/O error): that group is lost.
    if (this.open && !this.connection.raw.inTransaction) this.fail(new Error('The shared transaction was rolled back by SQLite.'));
    this.first = !this.open;
    if (this.first) {
      // `begin` is run as `begin immediate` by the driver's statement cache: the write lock is taken now.
      this.run('begin');
      this.open = new Group();
    } else {
      this.run('savepoint wb_write');
    }
  }

  /** Ends a transaction of the query layer: its writes join the group's. */
  commit(): void {
    if (!this.first) this.run('release wb_write');
    if (this.open) this.open.transactions++;
  }

  /** Rolls back a transaction of the query layer alone. */
  rollback(): void {
    if (!this.connection.raw.inTransaction) return;
    if (this.first) {
      // Nothing else ran in the group yet: its transaction is this one's alone, and the group ends with it.
      const group = this.open as Group;
      this.open = null;
      this.endWindow();
      this.run('rollback');
      group.resolve();
      return;
    }
    this.run('rollback to wb_write');
    this.run('release wb_write');
  }

  /**
   * A lease of the connection ends. When it ran inside a group, returns that group's commit, which the lease must
   * await before it hands anything back; `waiting` tells whether another caller waits for the connection.
   */
  leaseEnded(waiting: boolean): Promise<void> | undefined {
    const group = this.open;
    if (!group) return undefined;
    group.leases++;
    if (group.leases >= this.maxLeases) this.commitOpen();
    // Otherwise the next caller runs in the group; with no one queued, the group waits only while writes are coming.
    else if (!waiting) {
      if (!this.waitsForWrites(group)) this.commitOpen();
      else if (!this.windowTimer) {
        const windowMs = (this.coming as WritesComing).windowMs;
        if (group.windowEnds === Number.POSITIVE_INFINITY) group.windowEnds = performance.now() + windowMs;
        this.windowTimer = setTimeout(() => this.windowEnded(group), Math.max(0, group.windowEnds - performance.now()));
      }
    }
    return group.done;
  }

  /** The commit of the group whose transaction is open, if one is. */
  get pending(): Promise<void> | undefined {
    return this.open?.done;
  }

  /** Commits an open group now (when the database closes, after its last lease). */
  flush(): void {
    if (this.open) this.commitOpen();
  }

  private commitOpen(): void {
    this.endWindow();
    const group = this.open as Group;
    this.open = null;
    try {
      if (!this.connection.raw.inTransaction) throw new Error('The shared transaction was rolled back by SQLite.');
      this.run('commit');
      this.counts.transactions += group.transactions;
      this.counts.commits++;
      group.resolve();
    } catch (error) {
      this.fail(error as Error, group);
    }
  }

  private fail(error: Error, group = this.open as Group): void {
    if (this.open === group) {
      this.open = null;
      this.endWindow();
    }
    if (this.connection.raw.inTransaction) {
      try {
        this.run('rollback');
      } catch {
        // The transaction is gone either way.
      }
    }
    group.reject(error);
  }

  /**
   * Whether `group` waits for more writes, its window not over: while writes overlap (WritesComing.busy) until the
   * window ends, since more arrive meanwhile; otherwise only while more are announced than it holds transactions.
   */
  private waitsForWrites(group: Group): boolean {
    const { coming } = this;
    if (!coming || coming.windowMs <= 0 || performance.now() >= group.windowEnds) return false;
    return coming.busy || coming.inFlight > group.transactions;
  }

  /**
   * The group's window is over. It commits now unless a lease is under way: that lease may be a transaction of the
   * group between two statements, and the group then commits when it ends (its window being over).
   */
  private windowEnded(group: Group): void {
    this.windowTimer = null;
    if (this.open === group && !this.leased()) this.commitOpen();
  }

  private endWindow(): void {
    if (this.windowTimer) clearTimeout(this.windowTimer);
    this.windowTimer = null;
  }

  private run(sql: string): void {
    this.connection.prepare(sql).run(NO_PARAMETERS);
  }
}
