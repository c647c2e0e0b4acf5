import type { Clock } from '../../clock.js';
import type { DocumentRow } from '../../db/repositories/documents.repository.js';
import type { Repositories } from '../../db/repositories/index.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FileStore } from '../../documents/file-store.js';
import { signPath, verifySignedUrlQuery } from '../../documents/signed-url.js';
import type { Caller } from '../auth.service.js';
import { NotFoundError } from '../errors.js';
import { findShipment, type ShipmentIdentifier } from '../shipments/shipment-identifier.js';

export const DOWNLOAD_URL_LIFETIME_MS = 24 * 60 * 60_000;

/** The Document reference inside a shipment. */
export function documentRef(row: DocumentRow) {
  return {
    document_uuid: row.document_uuid,
    document_id: row.document_id,
    name: row.name,
    type: row.type,
    file_format: row.file_format,
    created_date: row.created_at,
    additional_info: JSON.parse(row.additional_info) as Record<string, unknown>,
  };
}

/** Shipping documents: metadata in the database, files in the file store, downloads through signed URLs. */
export class DocumentsService {
  constructor(
    private readonly repos: Repositories,
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly urlKey: Uint8Array,
    private readonly publicUrl: string,
  ) {}

  /** A signed link to the file, valid 24 hours, that needs no bearer token; null while the file is pending. */
  downloadUrl(row: DocumentRow): string | null {
    if (row.status !== 'ready') return null;
    const expires = new Date(this.clock.now().getTime() + DOWNLOAD_URL_LIFETIME_MS);
    return `${this.publicUrl}${signPath(`/files/documents/${row.document_uuid}/`, this.urlKey, expires)}`;
  }

  withUrl(row: DocumentRow) {
    return { ...documentRef(row), download_url: this.downloadUrl(row) };
  }

  /** The BookingDocument record: with the file's Base64 content when it is ready. */
  async withContent(row: DocumentRow) {
    const file = row.status === 'ready' && row.file_key ? await this.files.get(row.file_key) : null;
    return { ...this.withUrl(row), base64_content: file ? Buffer.from(file.bytes).toString('base64') : null };
  }

  async list(caller: Caller, identifier: ShipmentIdentifier, type?: string) {
    const shipment = await findShipment(this.repos, caller.accountId, identifier);
    const rows = await this.repos.documents.listForShipments([shipment.id], type);
    return rows.map((row) => this.withUrl(row));
  }

  async get(caller: Caller, documentUuid: string) {
    const row = await this.repos.documents.findByUuid(caller.accountId, documentUuid);
    if (!row) throw new NotFoundError('No document matches the identifier');
    return this.withContent(row);
  }

  /** The references shown in shipment details, for several shipments at once. */
  async refsFor(shipments: ShipmentRow[]): Promise<Map<number, Record<string, unknown>[]>> {
    const byShipment = new Map<number, Record<string, unknown>[]>(shipments.map((s) => [s.id, []]));
    for (const row of await this.repos.documents.listForShipments(shipments.map((s) => s.id)))
      byShipment.get(row.shipment_row_id)?.push(documentRef(row));
    return byShipment;
  }

  /** A signed download: the file, or why not ('invalid' and 'expired' are 403, 'missing' 404). */
  async download(
    documentUuid: string,
    query: Record<string, unknown>,
  ): Promise<{ bytes: Uint8Array; contentType: string; fileName: string } | 'invalid' | 'expired' | 'missing'> {
    const verdict = verifySignedUrlQuery(
      `/files/documents/${documentUuid}/`,
      query as { expires?: string; signature?: string },
      this.urlKey,
      this.clock.now(),
    );
    if (verdict !== 'ok') return verdict;
    const row = await this.repos.documents.findByUuidAnyAccount(documentUuid);
    const file = row?.file_key ? await this.files.get(row.file_key) : null;
    if (!row || !file) return 'missing';
    return { bytes: file.bytes, contentType: file.contentType, fileName: `${row.document_id}.${row.file_format}` };
  }
}
