import { sql } from 'kysely';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentWrite } from '../../schemas/shipment-input.schemas.js';
import type { Caller } from '../auth.service.js';
import { type FieldErrors, ValidationError } from '../errors.js';
import type { CreateManyOutcome, ShipmentsService } from '../shipments/shipments.service.js';
import { CsvError } from './csv.js';
import { type ImportFormat, type ImportRow, importRows } from './import-rows.js';

/** The `source` of shipments created from a file. */
export const IMPORT_SOURCE = 'file upload';

/** Structural checks of a create body (the same schema as POST /v5/shipment/): field errors, or null. */
export type BodyValidator = (body: Record<string, unknown>) => FieldErrors | null;

export interface ImportRowError {
  row: number;
  line: number;
  shipment_id: string | null;
  errors: FieldErrors;
}

export interface ImportRowSkipped {
  row: number;
  line: number;
  shipment_id: string;
}

export interface ImportResult {
  rows: number;
  created: number;
  skipped: ImportRowSkipped[];
  errors: ImportRowError[];
}

export interface ImportOptions {
  /** Rows whose shipment_id already exists are skipped and reported (resuming an interrupted import), not errors. */
  skipExisting?: boolean;
}

/**
 * Creates shipments from a CSV or JSON Lines file, each row with the rules of POST /v5/shipment/ and
 * all-or-nothing. Rows are written in chunks (one transaction and a few multi-row statements per chunk),
 * so a large file neither holds one long transaction nor pays a commit or a round trip per row.
 */
export class ShipmentImportService {
  constructor(
    private readonly repos: Repositories,
    private readonly shipments: ShipmentsService,
    private readonly validate: BodyValidator,
    private readonly chunkSize = 500,
  ) {}

  async run(caller: Caller, format: ImportFormat, text: string, options: ImportOptions = {}): Promise<ImportResult> {
    const result: ImportResult = { rows: 0, created: 0, skipped: [], errors: [] };
    let pending: ImportRow[] = [];
    const rows = importRows(format, text);
    try {
      for (const row of rows) {
        result.rows++;
        const problems = row.errors ?? (row.body ? this.validate(row.body) : null);
        if (problems) {
          result.errors.push({
            row: row.row,
            line: row.line,
            shipment_id: shipmentIdOf(row.body) ?? row.shipmentId ?? null,
            errors: problems,
          });
          continue;
        }
        pending.push(row);
        if (pending.length >= this.chunkSize) {
          await this.createChunk(caller, pending, result, options);
          pending = [];
        }
      }
    } catch (error) {
      if (!(error instanceof CsvError)) throw error;
      result.rows++;
      result.errors.push({ row: result.rows, line: error.line, shipment_id: null, errors: { non_field_errors: [error.message] } });
    }
    if (pending.length > 0) await this.createChunk(caller, pending, result, options);
    result.errors.sort((a, b) => a.row - b.row);
    result.skipped.sort((a, b) => a.row - b.row);
    return result;
  }

  /**
   * A chunk of rows that passed the structural checks: created together (`createManyIn`, each row still
   * refused alone by the create rules), in shipment_id order. Should the batch fail in the database (a shipment_id created by
   * someone else meanwhile), the chunk is done again row by row, each in a savepoint of its own.
   */
  private async createChunk(caller: Caller, chunk: ImportRow[], result: ImportResult, options: ImportOptions): Promise<void> {
    // Written in shipment_id order: two imports of the same shipments then take their row locks in one order,
    // so on PostgreSQL one waits for the other instead of both being aborted as a deadlock.
    const rows = [...chunk].sort((a, b) => compareIds(shipmentIdOf(a.body) ?? '', shipmentIdOf(b.body) ?? ''));
    let outcomes: CreateManyOutcome[];
    try {
      outcomes = await this.repos.transaction((trx) =>
        this.shipments.createManyIn(
          trx,
          caller,
          rows.map((row) => row.body as ShipmentWrite & { shipment_id: string }),
          { source: IMPORT_SOURCE, skipExisting: options.skipExisting },
        ),
      );
    } catch {
      return this.createRowByRow(caller, rows, result, options);
    }
    outcomes.forEach((outcome, i) => {
      const row = rows[i];
      const shipmentId = (row.body as { shipment_id: string }).shipment_id;
      if (outcome.result === 'created') result.created++;
      else if (outcome.result === 'exists') result.skipped.push({ row: row.row, line: row.line, shipment_id: shipmentId });
      else result.errors.push({ row: row.row, line: row.line, shipment_id: shipmentId, errors: outcome.errors });
    });
  }

  private async createRowByRow(caller: Caller, rows: ImportRow[], result: ImportResult, options: ImportOptions): Promise<void> {
    await this.repos.transaction(async (trx) => {
      for (const row of rows) {
        const body = row.body as ShipmentWrite & { shipment_id: string };
        if (options.skipExisting && (await trx.shipments.findByShipmentId(caller.accountId, body.shipment_id))) {
          result.skipped.push({ row: row.row, line: row.line, shipment_id: body.shipment_id });
          continue;
        }
        await sql`savepoint import_row`.execute(trx.db);
        try {
          await this.shipments.createIn(trx, caller, body, { source: IMPORT_SOURCE });
          await sql`release savepoint import_row`.execute(trx.db);
          result.created++;
        } catch (error) {
          await sql`rollback to savepoint import_row`.execute(trx.db);
          await sql`release savepoint import_row`.execute(trx.db);
          if (!(error instanceof ValidationError)) throw error;
          result.errors.push({ row: row.row, line: row.line, shipment_id: body.shipment_id, errors: error.errors });
        }
      }
    });
  }
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shipmentIdOf(body: Record<string, unknown> | null): string | null {
  return typeof body?.shipment_id === 'string' ? body.shipment_id : null;
}
