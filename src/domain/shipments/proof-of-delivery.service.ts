import type { ProofOfDelivery } from '../../carriers/carrier.js';
import type { Clock } from '../../clock.js';
import type { ShipmentRow } from '../../db/repositories/shipments.repository.js';
import type { FileStore } from '../../documents/file-store.js';
import { signPath, verifySignedUrlQuery } from '../../documents/signed-url.js';

export const POD_URL_LIFETIME_MS = 7 * 24 * 60 * 60_000;

interface StoredProof {
  key: string;
  reference: string;
  content_type: string;
}

/**
 * The carrier's proof of delivery, kept by the service (carriers' own links expire) and served through a
 * signed URL that is valid 7 days and made anew for every response.
 */
export class ProofOfDeliveryService {
  constructor(
    private readonly files: FileStore,
    private readonly clock: Clock,
    private readonly urlKey: Uint8Array,
    private readonly publicUrl: string,
  ) {}

  /** Whether the shipment holds this proof already (the same file at the carrier). */
  holds(shipment: Pick<ShipmentRow, 'pod_file'>, proof: ProofOfDelivery): boolean {
    const current = shipment.pod_file ? (JSON.parse(shipment.pod_file) as StoredProof) : null;
    return current?.reference === proof.reference;
  }

  /** Fetches and stores the proof when it is new; returns the value for `shipments.pod_file`, or null to keep the current one. */
  async capture(shipment: Pick<ShipmentRow, 'pod_file' | 'shipment_uuid'>, proof: ProofOfDelivery): Promise<string | null> {
    if (this.holds(shipment, proof)) return null;
    const fetched = await proof.fetch({});
    if (fetched.status !== 'ok') return null;
    const key = `pod/${shipment.shipment_uuid}`;
    const contentType = fetched.content_type ?? proof.content_type;
    await this.files.put(key, fetched.content, contentType);
    return JSON.stringify({ key, reference: proof.reference, content_type: contentType } satisfies StoredProof);
  }

  url(shipment: Pick<ShipmentRow, 'pod_file' | 'shipment_uuid'>): string | null {
    if (!shipment.pod_file) return null;
    const expires = new Date(this.clock.now().getTime() + POD_URL_LIFETIME_MS);
    return `${this.publicUrl}${signPath(`/files/pod/${shipment.shipment_uuid}/`, this.urlKey, expires)}`;
  }

  async download(
    shipmentUuid: string,
    query: Record<string, unknown>,
  ): Promise<{ bytes: Uint8Array; contentType: string } | 'invalid' | 'expired' | 'missing'> {
    const verdict = verifySignedUrlQuery(`/files/pod/${shipmentUuid}/`, query, this.urlKey, this.clock.now());
    if (verdict !== 'ok') return verdict;
    const file = await this.files.get(`pod/${shipmentUuid}`);
    return file ? { bytes: file.bytes, contentType: file.contentType } : 'missing';
  }
}
