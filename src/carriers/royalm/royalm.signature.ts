import type { CarrierError } from '../carrier.js';
import { errorOf, objectOf, textOf } from './royalm.payload.js';
import { svgSignatureToPng } from './royalm.svg.js';

/**
 * The signature answer (`GET /mailpieces/v2/{mailPieceId}/signature`) → the image's bytes, always PNG: Royal
 * Mail sends either a base64 PNG or an SVG document (`imageFormat` says which), and an SVG is drawn as a PNG.
 */

export interface SignatureImage {
  status: 'ok';
  content: Buffer;
  content_type: 'image/png';
}

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function noProof(message: string): CarrierError {
  // Never retried: a mail piece without a signature keeps having none.
  return { status: 'error', retryable: false, message };
}

/** A 200 signature answer's image as PNG bytes, or why there is none. */
export async function mapSignatureBody(body: unknown): Promise<SignatureImage | CarrierError> {
  const signature = objectOf(objectOf(objectOf(body)?.mailPieces)?.signature);
  const image = typeof signature?.image === 'string' ? signature.image.trim() : '';
  if (image === '') {
    const error = errorOf(body);
    return noProof(`Royal Mail has no signature for this item${error ? ` (${error.text})` : ''}`);
  }
  const format = textOf(signature?.imageFormat)?.toLowerCase() ?? '';
  if (format.includes('svg') || (format === '' && /^(<\?xml[^>]*>\s*)?<svg\b/i.test(image))) {
    const png = await svgSignatureToPng(image);
    return png ? { status: 'ok', content: png, content_type: 'image/png' } : noProof('Royal Mail signature SVG could not be drawn');
  }
  const encoded = image.replace(/^data:image\/png;base64,/i, '').replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return noProof('Royal Mail signature is neither SVG nor base64 text');
  const content = Buffer.from(encoded, 'base64');
  if (content.length < PNG_MAGIC.length || !content.subarray(0, PNG_MAGIC.length).equals(PNG_MAGIC)) {
    return noProof(`Royal Mail signature is not a PNG image${format ? ` (${format.slice(0, 40)})` : ''}`);
  }
  return { status: 'ok', content, content_type: 'image/png' };
}

/**
 * A signature answer that is not a 200 with an image: 404 (and Royal Mail's `E1144`/`E1145`, no proof of
 * delivery for the item or its product) is a lasting absence; anything else is the caller's to report.
 */
export function signatureAbsence(status: number, body: unknown): CarrierError | null {
  const error = errorOf(body);
  if (status === 404 || error?.code === 'E1144' || error?.code === 'E1145') {
    return noProof(`Royal Mail has no proof of delivery for this item (HTTP ${status}${error ? `, ${error.text}` : ''})`);
  }
  return null;
}
