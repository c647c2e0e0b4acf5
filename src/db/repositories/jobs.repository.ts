import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { DialectName } from '../connection.js';
import type { Database, JobsTable } from '../schema.js';

export type JobRow = Selectable<JobsTable>;

export class JobsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /** Adds a job; with a dedupe key, a job already queued under that key is kept instead. */
  async insert(row: Insertable<JobsTable>): Promise<void> {
    await this.db
      .insertInto('jobs')
      .values(row)
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .execute();
  }

  /**
   * Claims up to `limit` due jobs for one worker: queued jobs whose time has come, and running jobs whose
   * lease ran out (their worker died). One statement, so two workers never claim the same job.
   */
  async claim(workerId: string, now: string, leaseUntil: string, limit: number, kinds: string[]): Promise<JobRow[]> {
    if (kinds.length === 0) return [];
    const lock = this.dialect === 'postgres' ? sql`for update skip locked` : sql``;
    const result = await sql<JobRow>`
      update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}
      where id in (
        select id from jobs
        where ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))
          and kind in (${sql.join(kinds)})
        order by run_at, id
        limit ${limit}
        ${lock}
      )
      returning *`.execute(this.db);
    return result.rows;
  }

  async complete(id: number, workerId: string, now: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'done', locked_by: null, locked_until: null, updated_at: now, last_error: null })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** `complete` for many jobs of one worker in one statement. */
  async completeMany(ids: number[], workerId: string, now: string): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await this.db
        .updateTable('jobs')
        .set({ status: 'done', locked_by: null, locked_until: null, updated_at: now, last_error: null })
        .where('id', 'in', ids.slice(i, i + 500))
        .where('locked_by', '=', workerId)
        .execute();
    }
  }

  async retry(id: number, workerId: string, runAt: string, error: string, now: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'queued', run_at: runAt, locked_by: null, locked_until: null, last_error: error, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Puts the job back without counting the run as an attempt. */
  async defer(id: number, workerId: string, runAt: string, now: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'queued', run_at: runAt, locked_by: null, locked_until: null, attempts: sql`attempts - 1`, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  async bury(id: number, workerId: string, error: string, now: string): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({ status: 'dead', locked_by: null, locked_until: null, last_error: error, updated_at: now })
      .where('id', '=', id)
      .where('locked_by', '=', workerId)
      .execute();
  }

  /** Done jobs older than `before` are removed; their effects live in their own tables. */
  async purgeDone(before: string): Promise<number> {
    const result = await this.db.deleteFrom('jobs').where('status', '=', 'done').where('updated_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
