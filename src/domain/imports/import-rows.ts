import { isDecimalText } from '../../core/decimal-text.js';
import { ADDRESS_FIELDS, ADDRESS_ROLES } from '../../schemas/address.schemas.js';
import { ShipmentCreateBody } from '../../schemas/shipment-input.schemas.js';
import type { FieldErrors } from '../errors.js';
import { parseCsv } from './csv.js';

/** One row of an import file, turned into a create body, or the reason it could not be read. */
export interface ImportRow {
  /** 1-based position among the file's records (the header is not a record). */
  row: number;
  /** The line of the file the record starts on. */
  line: number;
  body: Record<string, unknown> | null;
  /** Set when the row could not be read into a body at all. */
  errors?: FieldErrors;
  /** The row's shipment_id when it could be read even though the row could not. */
  shipmentId?: string;
}

export type ImportFormat = 'csv' | 'jsonl';

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  maxItems?: number;
  anyOf?: JsonSchema[];
};

const addressFields = new Set<string>(ADDRESS_FIELDS);
const ROLE_PREFIXES = ADDRESS_ROLES.map((role) => ({ prefix: `${role.replace(/_address$/, '')}_`, role }));
const ARRAY_SEPARATOR = '|';

/**
 * A column name as a path into the create body: dotted paths as they are (`shipment_value.amount`,
 * `line_items.0.quantity`), and the flat address columns `recipient_city`, `sender_country_code`, … as
 * `recipient_address.city`, `sender_address.country_code`, ….
 */
export function columnPath(column: string): string[] {
  const name = column.trim();
  if (name.includes('.')) return name.split('.');
  for (const { prefix, role } of ROLE_PREFIXES) {
    if (name.startsWith(prefix) && addressFields.has(name.slice(prefix.length))) return [role, name.slice(prefix.length)];
  }
  return [name];
}

/** Keys that would reach an object's prototype rather than a field of it. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
/** The highest position a column may name in a list the create body's schema does not bound. */
const MAX_LIST_POSITION = 999;

/**
 * Why a column cannot be written into a body, or null when it can: a path through a prototype (`__proto__.x`)
 * would change every object of the process, and a list position past what the list may hold (`line_items.99999999`)
 * would make a list of that length before validation could refuse it.
 */
function columnRefusal(path: string[]): string | null {
  let node: JsonSchema | undefined = ShipmentCreateBody as unknown as JsonSchema;
  for (const segment of path) {
    if (PROTOTYPE_KEYS.has(segment)) return 'Not a field of a shipment.';
    node = nonNull(node);
    if (/^\d+$/.test(segment)) {
      const max = node?.items ? (node.maxItems ?? MAX_LIST_POSITION + 1) : MAX_LIST_POSITION + 1;
      if (Number(segment) >= max) {
        return node?.items
          ? `A list holds no more than ${max} items: position ${segment} is past its end.`
          : `Not a field of a shipment: position ${segment} is past the end of any list (${max} items at most).`;
      }
      node = node?.items;
    } else {
      node = node?.properties?.[segment];
    }
  }
  return null;
}

/** The schema at a path of the create body, or null when the path names nothing. */
function schemaAt(path: string[]): JsonSchema | null {
  let node: JsonSchema | undefined = ShipmentCreateBody as unknown as JsonSchema;
  for (const segment of path) {
    node = nonNull(node);
    if (!node) return null;
    if (/^\d+$/.test(segment) && node.items) node = node.items;
    else node = node.properties?.[segment];
  }
  return node ? (nonNull(node) ?? null) : null;
}

function nonNull(schema: JsonSchema | undefined): JsonSchema | undefined {
  if (schema?.anyOf) return schema.anyOf.find((branch) => branch.type !== 'null') ?? schema;
  return schema;
}

/**
 * A cell's text as the value the schema expects: numbers for numbers, lists split on `|` for lists of
 * text, JSON for objects and lists of objects. Text that does not convert is kept, so validation names it.
 */
function cellValue(text: string, schema: JsonSchema | null): unknown {
  const type = schema?.type;
  if (type === 'number' || type === 'integer') {
    // Spreadsheets pad cells with spaces; the number itself is read as a query's is (core/decimal-text.ts).
    const trimmed = text.trim();
    return isDecimalText(trimmed, type === 'integer') ? Number(trimmed) : text;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'array' && nonNull(schema?.items)?.type === 'string') {
    return text
      .split(ARRAY_SEPARATOR)
      .map((part) => part.trim())
      .filter((part) => part !== '');
  }
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function setPath(target: Record<string, unknown>, path: string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  for (let k = 0; k < path.length - 1; k++) {
    const key = path[k];
    const nextIsIndex = /^\d+$/.test(path[k + 1]);
    const existing = node[key];
    if (existing === null || typeof existing !== 'object') node[key] = nextIsIndex ? [] : {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/** The rows of a CSV file: a header of column names, then one shipment per record. */
export function* csvRows(text: string): Generator<ImportRow, void, undefined> {
  const records = parseCsv(text);
  const header = records.next();
  if (header.done) return;
  const columns = header.value.cells.map((name) => {
    const path = columnPath(name);
    return { name: name.trim(), path, refusal: columnRefusal(path) };
  });
  const paths = columns.map((column) => (column.name === 'json' ? null : schemaAt(column.path)));
  let row = 0;
  for (const record of records) {
    row++;
    const body: Record<string, unknown> = {};
    let errors: FieldErrors | undefined;
    const jsonIndex = columns.findIndex((column) => column.name === 'json');
    if (jsonIndex !== -1 && record.cells[jsonIndex]?.trim()) {
      try {
        const parsed = JSON.parse(record.cells[jsonIndex]);
        if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
        // Copied key by key: assigning an own `__proto__` key would set the body's prototype instead.
        for (const [key, value] of Object.entries(parsed)) {
          if (key === '__proto__') errors = { ...errors, json: ['__proto__ is not a field of a shipment.'] };
          else body[key] = value;
        }
      } catch {
        errors = { json: ['Enter a JSON object.'] };
      }
    }
    if (record.cells.length > columns.length) {
      errors = { ...errors, non_field_errors: [`This row has ${record.cells.length} cells; the header has ${columns.length}.`] };
    }
    columns.forEach((column, index) => {
      if (index === jsonIndex) return;
      const text = record.cells[index];
      if (text === undefined || text === '') return;
      if (column.refusal) errors = { ...errors, [column.name]: [column.refusal] };
      else setPath(body, column.path, cellValue(text, paths[index]));
    });
    if (!errors) yield { row, line: record.line, body };
    else {
      const shipmentId = typeof body.shipment_id === 'string' ? body.shipment_id : undefined;
      yield { row, line: record.line, body: null, errors, ...(shipmentId ? { shipmentId } : {}) };
    }
  }
}

/** The rows of a JSON Lines file: one create body per line; blank lines are skipped. */
export function* jsonlRows(text: string): Generator<ImportRow, void, undefined> {
  let row = 0;
  let line = 0;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    line++;
    const content = text.slice(start, end).trim();
    start = end + 1;
    if (content === '') continue;
    row++;
    try {
      const body = JSON.parse(content);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new Error('not an object');
      yield { row, line, body };
    } catch {
      yield { row, line, body: null, errors: { non_field_errors: ['Each line must be one JSON object.'] } };
    }
  }
}

export function importRows(format: ImportFormat, text: string): Generator<ImportRow, void, undefined> {
  return format === 'csv' ? csvRows(text) : jsonlRows(text);
}
