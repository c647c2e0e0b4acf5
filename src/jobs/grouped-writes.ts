import type { Repositories } from '../db/repositories/index.js';

type Write = (repos: Repositories) => Promise<void>;

interface Pending {
  write: Write;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Small writes of jobs that finish at about the same time, committed together: each `commit` resolves once
 * its write is in a committed transaction, shared with the others queued by then (at most `maxGroup`). A
 * commit costs more than the few statements it holds, and on SQLite its sync is one for the group. When the
 * shared transaction fails, each write is tried again in a transaction of its own, so one bad write fails
 * only its own job.
 */
export class GroupedWrites {
  private pending: Pending[] = [];
  private scheduled = false;

  constructor(
    private readonly repos: Repositories,
    private readonly maxGroup = 64,
  ) {}

  commit(write: Write): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        // After the current turn: the writes of jobs finishing in the same turn join.
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const group = this.pending.splice(0, this.maxGroup);
    if (this.pending.length > 0) {
      this.scheduled = true;
      setImmediate(() => void this.flush());
    }
    if (group.length === 0) return;
    try {
      await this.repos.transaction(async (repos) => {
        for (const item of group) await item.write(repos);
      });
      for (const item of group) item.resolve();
    } catch {
      for (const item of group) {
        try {
          await this.repos.transaction(item.write);
          item.resolve();
        } catch (error) {
          item.reject(error);
        }
      }
    }
  }
}
