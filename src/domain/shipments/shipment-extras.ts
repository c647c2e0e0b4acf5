import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { DocumentsService } from '../documents/documents.service.js';
import type { ReturnsInfoReader } from '../returns/returns-info.reader.js';
import type { ProofOfDeliveryService } from './proof-of-delivery.service.js';
import type { ShipmentExtras } from './shipment.reader.js';

/** The parts of a shipment that documents, returns, bookings (the collection point) and proofs of delivery contribute. */
export class ShipmentExtrasOfCapabilities implements ShipmentExtras {
  constructor(
    private readonly docs: DocumentsService,
    private readonly returnsInfo: ReturnsInfoReader,
    private readonly proofs: ProofOfDeliveryService,
  ) {}

  documents(rows: ShipmentRow[]): Promise<Map<number, Record<string, unknown>[]>> {
    return this.docs.refsFor(rows);
  }

  returns(row: ShipmentRow): Promise<Record<string, unknown> | null> {
    return this.returnsInfo.returnsInfo(row);
  }

  async collectionPoint(row: ShipmentRow): Promise<Record<string, unknown> | null> {
    return row.collection_point ? JSON.parse(row.collection_point) : null;
  }

  async podUrl(row: Pick<ShipmentRow, 'pod_file' | 'shipment_uuid'>): Promise<string | null> {
    return this.proofs.url(row);
  }
}
