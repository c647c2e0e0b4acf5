import fs from 'node:fs';
import path from 'node:path';
import { csvCell, parseCsv } from '../domain/imports/csv.js';
import type { ImportResult, ImportRowError, ImportRowSkipped } from '../domain/imports/shipment-import.service.js';
import { fetchFrom, type ServiceAddress } from './service-address.js';

/** Where a chunk of records came from in the file: its rows are renumbered back to the file's. */
interface Chunk {
  body: string;
  /** The file's row number and line of each record of the chunk, in order. */
  positions: Array<{ row: number; line: number }>;
}

export interface ImportProgress {
  start(total: number): void;
  advance(done: number, totals: { created: number; skipped: number; errors: number }): void;
  stop(): void;
}

export interface ImportFileOptions {
  service: ServiceAddress;
  clientId: string;
  clientSecret: string;
  file: string;
  /** Records per request (each request is committed on its own). */
  chunkRows?: number;
  /** Skip rows whose shipment_id exists (the default): running the same file again resumes it. */
  skipExisting?: boolean;
  progress?: ImportProgress;
  fetch?: typeof fetch;
}

const JSONL = new Set(['.jsonl', '.ndjson']);

/** Splits a CSV or JSON Lines file into request bodies of `chunkRows` records, remembering where each record was. */
export function* chunksOf(text: string, format: 'csv' | 'jsonl', chunkRows: number): Generator<Chunk> {
  if (format === 'csv') {
    const records = parseCsv(text);
    const header = records.next();
    if (header.done) return;
    const head = header.value.cells.map(csvCell).join(',');
    let lines: string[] = [];
    let positions: Chunk['positions'] = [];
    let row = 0;
    for (const record of records) {
      lines.push(record.cells.map(csvCell).join(','));
      positions.push({ row: ++row, line: record.line });
      if (lines.length >= chunkRows) {
        yield { body: `${head}\n${lines.join('\n')}\n`, positions };
        lines = [];
        positions = [];
      }
    }
    if (lines.length > 0) yield { body: `${head}\n${lines.join('\n')}\n`, positions };
    return;
  }
  const lines: string[] = [];
  const positions: Chunk['positions'] = [];
  let row = 0;
  text.split('\n').forEach((content, index) => {
    if (content.trim() === '') return;
    lines.push(content);
    positions.push({ row: ++row, line: index + 1 });
  });
  for (let i = 0; i < lines.length; i += chunkRows) {
    yield { body: `${lines.slice(i, i + chunkRows).join('\n')}\n`, positions: positions.slice(i, i + chunkRows) };
  }
}

/**
 * `waybill import shipments FILE`: a thin client of POST /v5/shipment/import/. The file is sent in
 * chunks; each is committed by the server before the next is sent, so an interrupted import is resumed
 * by running the same command again (rows already created are skipped and reported).
 */
export async function importFile(options: ImportFileOptions): Promise<ImportResult> {
  const doFetch = fetchFrom(options.service, options.fetch);
  const baseUrl = options.service.url;
  const extension = path.extname(options.file).toLowerCase();
  const format = JSONL.has(extension) ? 'jsonl' : 'csv';
  const text = fs.readFileSync(options.file, 'utf8');
  const chunkRows = options.chunkRows ?? 1000;
  const chunks = [...chunksOf(text, format, chunkRows)];
  const total = chunks.reduce((sum, chunk) => sum + chunk.positions.length, 0);
  const tokens = new TokenSource(baseUrl, options.clientId, options.clientSecret, doFetch);
  const result: ImportResult = { rows: 0, created: 0, skipped: [], errors: [] };
  const query = options.skipExisting === false ? '' : '?skip_existing=true';
  // A service that cannot be reached for the first token is at another address or not started, not
  // restarting in the middle of the import: that is said at once rather than after the retries.
  if (chunks.length > 0) await tokens.get();
  options.progress?.start(total);
  try {
    for (const chunk of chunks) {
      const answer = await sendWithRetry(
        async () =>
          doFetch(`${baseUrl}/v5/shipment/import/${query}`, {
            method: 'POST',
            headers: {
              authorization: `Bearer ${await tokens.get()}`,
              'content-type': format === 'csv' ? 'text/csv' : 'application/x-ndjson',
            },
            body: chunk.body,
          }),
        tokens,
      );
      const at = (row: number) => chunk.positions[row - 1] ?? { row, line: 0 };
      result.rows += answer.rows;
      result.created += answer.created;
      result.skipped.push(...answer.skipped.map((s: ImportRowSkipped) => ({ ...s, ...at(s.row) })));
      result.errors.push(...answer.errors.map((e: ImportRowError) => ({ ...e, ...at(e.row) })));
      options.progress?.advance(result.rows, { created: result.created, skipped: result.skipped.length, errors: result.errors.length });
    }
  } finally {
    options.progress?.stop();
  }
  return result;
}

async function sendWithRetry(send: () => Promise<Response>, tokens: TokenSource): Promise<ImportResult> {
  let delay = 500;
  for (let attempt = 1; ; attempt++) {
    let response: Response | null = null;
    try {
      response = await send();
    } catch (error) {
      // Only a connection that failed is worth another try; a refused token is final.
      if (error instanceof TokenRefusedError || attempt >= 5) throw error;
    }
    if (response) {
      const text = await response.text();
      if (response.ok) return (JSON.parse(text) as { data: ImportResult }).data;
      if (response.status === 403 && attempt === 1) tokens.renew();
      else if (response.status !== 429 && response.status < 500) throw new Error(`import refused: ${response.status} ${text}`);
      else if (attempt >= 5) throw new Error(`import failed: ${response.status} ${text}`);
      const retryAfter = Number(response.headers.get('retry-after'));
      if (retryAfter > 0) delay = retryAfter * 1000;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay = Math.min(delay * 2, 10_000);
  }
}

/** Access tokens by the client credentials grant, renewed a minute before they expire or when refused. */
export class TokenSource {
  private token: string | null = null;
  private expiresAt = 0;

  constructor(
    private readonly baseUrl: string,
    private readonly clientId: string,
    private readonly clientSecret: string,
    private readonly doFetch: typeof fetch = fetch,
  ) {}

  renew(): void {
    this.token = null;
  }

  async get(): Promise<string> {
    if (this.token && Date.now() < this.expiresAt - 60_000) return this.token;
    const response = await this.doFetch(`${this.baseUrl}/auth/oauth/token/`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${this.clientId}:${this.clientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const text = await response.text();
    if (!response.ok) throw new TokenRefusedError(`token refused: ${response.status} ${text}`);
    const body = JSON.parse(text) as { access_token: string; expires_in: number };
    this.token = body.access_token;
    this.expiresAt = Date.now() + body.expires_in * 1000;
    return this.token;
  }
}

export class TokenRefusedError extends Error {}
