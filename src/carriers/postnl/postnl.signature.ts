import type { CarrierError } from '../carrier.js';
import { warningsText } from './postnl.mapper.js';
import { objectOf, textOf } from './postnl.payload.js';

/**
 * The signature answer (`GET /shipment/v2/status/signature/{barcode}`) → the image's bytes. PostNL's portal says
 * the base64 image is a GIF, while its own SDK examples show PNG bytes; the bytes are read for what they are.
 */

export type SignatureContentType = 'image/png' | 'image/gif' | 'image/jpeg';

export interface SignatureImage {
  status: 'ok';
  content: Buffer;
  content_type: SignatureContentType;
}

/** The image type its first bytes announce, or null for anything else. */
export function imageTypeOf(bytes: Buffer): SignatureContentType | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 6 && /^GIF8[79]a$/.test(bytes.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

export const EXTENSIONS: Record<SignatureContentType, string> = { 'image/png': 'png', 'image/gif': 'gif', 'image/jpeg': 'jpg' };

/** The signature's bytes, or why there are none (never retried: a parcel without a signature keeps having none). */
export function mapSignatureBody(body: unknown): SignatureImage | CarrierError {
  const signature = objectOf(objectOf(body)?.Signature);
  const encoded = textOf(signature?.SignatureImage)?.replace(/\s+/g, '') ?? '';
  if (encoded === '') {
    const warnings = warningsText(body);
    return { status: 'error', retryable: false, message: `PostNL has no signature for this parcel${warnings ? ` (${warnings})` : ''}` };
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    return { status: 'error', retryable: false, message: 'PostNL signature is not base64 text' };
  }
  const content = Buffer.from(encoded, 'base64');
  const contentType = imageTypeOf(content);
  if (!contentType) return { status: 'error', retryable: false, message: 'PostNL signature is not a PNG, GIF or JPEG image' };
  return { status: 'ok', content, content_type: contentType };
}
