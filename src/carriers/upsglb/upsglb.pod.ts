import { createHash } from 'node:crypto';
import type { ProofOfDelivery } from '../carrier.js';
import type { UpsDeliveryInformation } from './upsglb.payload.js';

/**
 * UPS's proof of delivery comes inline: the signature image (base64, a GIF in practice) when the call
 * asks `returnSignature=true`, or a delivery photo. The bytes are in the tracking answer already, so
 * `fetch` only hands them over. UPS's HTML proof-of-delivery letter (`pod.content`) is not offered: the
 * service stores images and PDFs only.
 */

type ImageType = ProofOfDelivery['content_type'];

const EXTENSIONS: Record<ImageType, string> = {
  'image/gif': 'gif',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'application/pdf': 'pdf',
};

/** The image type its first bytes announce; null for anything else. */
export function imageTypeOf(bytes: Buffer): ImageType | null {
  if (bytes.length >= 6 && (bytes.subarray(0, 6).toString('latin1') === 'GIF87a' || bytes.subarray(0, 6).toString('latin1') === 'GIF89a'))
    return 'image/gif';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/** Base64 text (whitespace allowed) decoded, or null when it is not base64. */
function decodeBase64(value: unknown): Buffer | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(/\s+/g, '');
  if (compact === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, 'base64');
  return bytes.length > 0 ? bytes : null;
}

function image(value: unknown): { bytes: Buffer; type: ImageType } | null {
  const bytes = decodeBase64(value);
  const type = bytes ? imageTypeOf(bytes) : null;
  return bytes && type ? { bytes, type } : null;
}

/** The proof of delivery in a package's `deliveryInformation`, or undefined when it holds no image. */
export function proofOfDelivery(trackingNumber: string, info: UpsDeliveryInformation | undefined): ProofOfDelivery | undefined {
  if (!info || typeof info !== 'object') return undefined;
  const signature = info.signature && typeof info.signature === 'object' ? image(info.signature.image) : null;
  const photo = !signature && info.deliveryPhoto && typeof info.deliveryPhoto === 'object' ? image(info.deliveryPhoto.photo) : null;
  const found = signature ?? photo;
  if (!found) return undefined;
  const kind = signature ? 'signature' : 'photo';
  const digest = createHash('sha256').update(found.bytes).digest('hex').slice(0, 24);
  const number = trackingNumber.replace(/[^A-Za-z0-9]/g, '').slice(0, 40) || 'ups';
  const content = Buffer.from(found.bytes);
  const proof: ProofOfDelivery = {
    reference: `ups-${kind}-${digest}`,
    file_name: `${number}-${kind}.${EXTENSIONS[found.type]}`,
    content_type: found.type,
    fetch: async () => ({ status: 'ok', content: Buffer.from(content) }),
  };
  const signedBy = typeof info.receivedBy === 'string' ? info.receivedBy.replace(/\s+/g, ' ').trim() : '';
  if (signedBy) proof.signed_by = signedBy.slice(0, 200);
  return proof;
}
