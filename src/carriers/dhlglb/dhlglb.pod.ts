import type { CarrierError, ProofOfDelivery } from '../carrier.js';
import { type DhlEntity, type DhlShipment, record, text } from './dhlglb.payload.js';

/**
 * DHL's proof of delivery: `details.proofOfDelivery` links to a document (`documentUrl`, e.g. on
 * webpod.dhl.com) or a signature image (`signatureUrl`). Only a few divisions fill it in. The links say
 * nothing of the file's type, so it is read from the downloaded bytes.
 */

/** A proof-of-delivery link of one shipment, as the answer gives it. */
export interface DhlProofLink {
  url: string;
  kind: 'document' | 'signature';
  /** Stable across polls (DHL's links may carry a fresh token each time): shipment, kind, proof time. */
  reference: string;
  signed_by?: string;
}

/** Who signed, as DHL names them: the full name, given and family names, or the organisation. */
function signerOf(signed: DhlEntity | null): string | undefined {
  if (!signed) return undefined;
  const full = text(signed.name) ?? ([text(signed.givenName), text(signed.familyName)].filter(Boolean).join(' ') || null);
  return (full ?? text(signed.organizationName) ?? undefined)?.slice(0, 200);
}

/** The shipment's proof link (the document before the signature), or null when DHL gives none. */
export function proofLinkOf(shipment: DhlShipment, shipmentId: string): DhlProofLink | null {
  const details = record<{ proofOfDelivery?: unknown }>(shipment.details);
  const proof = record<{ documentUrl?: unknown; signatureUrl?: unknown; timestamp?: unknown; signed?: unknown }>(details?.proofOfDelivery);
  if (!proof) return null;
  const document = text(proof.documentUrl);
  const signature = text(proof.signatureUrl);
  const url = document ?? signature;
  if (!url) return null;
  const kind = document ? 'document' : 'signature';
  const signedBy = signerOf(record<DhlEntity>(proof.signed));
  return {
    url,
    kind,
    reference: `dhl:${shipmentId}:${kind}:${text(proof.timestamp) ?? ''}`,
    ...(signedBy ? { signed_by: signedBy } : {}),
  };
}

/**
 * Whether the link may be downloaded: HTTPS on a DHL domain (dhl.com, dhl.de and their subdomains), or
 * the API's own origin (the operator's base URL). Anything else in a carrier answer is not followed.
 */
export function mayFetch(url: string, apiOrigin: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  if (parsed.origin === apiOrigin) return true;
  if (parsed.protocol !== 'https:') return false;
  const host = parsed.hostname.toLowerCase();
  return ['dhl.com', 'dhl.de'].some((domain) => host === domain || host.endsWith(`.${domain}`));
}

type FileType = ProofOfDelivery['content_type'];

/** The type of a file from its first bytes, among those the service keeps; null for anything else (HTML…). */
export function sniffFileType(bytes: Buffer): FileType | null {
  if (bytes.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const gif = bytes.subarray(0, 6).toString('latin1');
  if (gif === 'GIF87a' || gif === 'GIF89a') return 'image/gif';
  return null;
}

const EXTENSIONS: Record<FileType, string> = {
  'application/pdf': 'pdf',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
};

/** Downloads a link; the carrier's transport answers with the body, or a failure as data. */
export type Download = (url: string, signal?: AbortSignal) => Promise<{ status: number; body: Buffer } | CarrierError>;

/**
 * The proof-of-delivery handle of a link. Its `content_type` and `file_name` are a guess (a document is
 * taken for a PDF, a signature for a PNG) until `fetch` has read the bytes: its answer carries the type
 * read from them, and the handle's two fields are set to match.
 */
export function proofOfDelivery(link: DhlProofLink, shipmentId: string, download: Download): ProofOfDelivery {
  const safeId = shipmentId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40) || 'shipment';
  const guess: FileType = link.kind === 'document' ? 'application/pdf' : 'image/png';
  const proof: ProofOfDelivery = {
    reference: link.reference,
    file_name: `dhl-${link.kind}-${safeId}.${EXTENSIONS[guess]}`,
    content_type: guess,
    ...(link.signed_by ? { signed_by: link.signed_by } : {}),
    async fetch(options) {
      const answer = await download(link.url, options.signal);
      if ('retryable' in answer) return answer;
      if (answer.status !== 200) {
        return {
          status: 'error',
          retryable: answer.status === 408 || answer.status >= 500,
          message: `DHL proof of delivery could not be downloaded (HTTP ${answer.status})`,
        };
      }
      const type = sniffFileType(answer.body);
      if (!type) {
        return {
          status: 'error',
          retryable: false,
          message: 'DHL proof of delivery link answered with something other than a PDF or an image (a web page?)',
        };
      }
      proof.content_type = type;
      proof.file_name = `dhl-${link.kind}-${safeId}.${EXTENSIONS[type]}`;
      return { status: 'ok', content: answer.body, content_type: type };
    },
  };
  return proof;
}
