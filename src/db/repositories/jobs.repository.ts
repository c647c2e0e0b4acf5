import { type Insertable, type Kysely, type Selectable, sql } from 'kysely';
import type { BookRequest } from '../../carriers/booking.js';
import type { LabelFormat, LabelInput } from '../../documents/label.types.js';
import type { DialectName } from '../connection.js';
import type { Database, JobsTable } from '../schema.js';

export type JobRow = Selectable<JobsTable>;

/**
 * Every kind of background job and the payload it carries (stored as JSON in `jobs.payload`). Services enqueue
 * a kind by name with its payload; the worker runs it with the one handler it holds for that kind.
 */
export interface JobPayloads {
  /** A label the carrier delivered late (a booking answered 299): render it, store it, mark its document ready. */
  'label.render': { document_row_id: number; format: LabelFormat; render?: LabelInput };
  /** One webhook delivery (a row of webhook_deliveries): sign it, post it, record the attempt. */
  'webhook.deliver': { delivery_id: number };
  /** A carrier's push, acknowledged when it arrived: parse it and apply it to the configuration's shipments. */
  'carrier.push': { carrier_id: string; carrier_reference: string; body: unknown };
  /** A booking whose answer was lost (status `unknown`): ask the carrier whether it booked, then finish or release it. */
  'booking.reconcile': { booking_row_id: number; request: BookRequest };
  /** One consumer notification (a row of notifications): compose it, send it, record the outcome. */
  'notification.send': { notification_id: number };
  /** A number an aggregator follows that Waybill no longer does: stop it there (the job's account owns the configuration). */
  'carrier.stop': { carrier_reference: string; tracking_number: string };
  /** A portal return the merchant approved: book its label with the account's return carrier. */
  'return.label': { return_uuid: string };
}

export type JobKind = keyof JobPayloads;

/** Written as a record so that a kind added to {@link JobPayloads} and left out here does not compile. */
const KINDS: Record<JobKind, true> = {
  'label.render': true,
  'webhook.deliver': true,
  'carrier.push': true,
  'booking.reconcile': true,
  'notification.send': true,
  'carrier.stop': true,
  'return.label': true,
};
/** Every job kind: the worker refuses to start without a handler for each. */
export const JOB_KINDS = Object.keys(KINDS) as readonly JobKind[];

export interface EnqueueOptions {
  /** The time of the write that causes the job; the job is due then unless `runAt` says later. */
  now: string;
  accountId?: number | null;
  runAt?: string;
  /** A second job with the same key is not added while the first exists. */
  dedupeKey?: string;
  maxAttempts?: number;
}

const DEFAULT_MAX_ATTEMPTS = 10;

export class JobsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Queues a job of one kind with its payload. Called on the repositories of the write that causes it, so the
   * job commits (or not) with that write.
   */
  async enqueue<K extends JobKind>(kind: K, payload: JobPayloads[K], options: EnqueueOptions): Promise<void> {
    await this.insert({
      kind,
      account_id: options.accountId ?? null,
      payload: JSON.stringify(payload),
      status: 'queued',
      run_at: options.runAt ?? options.now,
      max_attempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
      dedupe_key: options.dedupeKey ?? null,
      created_at: options.now,
      updated_at: options.now,
    });
  }

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
    const kindList = sql.join(kinds);
    // PostgreSQL skips rows another worker has locked; it cannot lock the rows of a union.
    const due =
      this.dialect === 'postgres'
        ? sql`select id from jobs
            where ((status = 'queued' and run_at <= ${now}) or (status = 'running' and locked_until < ${now}))
              and kind in (${kindList})
            order by run_at, id
            limit ${limit}
            for update skip locked`
        : // On SQLite, each half walks the (status, run_at) index in order and stops at the limit; the one OR
          // query sorted every due job on each claim (a backlog of thousands made each claim cost milliseconds).
          sql`select id from (
              select id, run_at from (select id, run_at from jobs where status = 'queued' and run_at <= ${now}
                and kind in (${kindList}) order by run_at, id limit ${limit})
              union all
              select id, run_at from (select id, run_at from jobs where status = 'running' and locked_until < ${now}
                and kind in (${kindList}) order by run_at, id limit ${limit}))
            order by run_at, id
            limit ${limit}`;
    const result = await sql<JobRow>`
      update jobs set status = 'running', locked_by = ${workerId}, locked_until = ${leaseUntil}, attempts = attempts + 1, updated_at = ${now}
      where id in (${due})
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
