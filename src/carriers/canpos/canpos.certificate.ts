import type { CarrierError } from '../carrier.js';
import { messagesText } from './canpos.mapper.js';
import { objectOf, textOf } from './canpos.payload.js';

/**
 * The delivery confirmation certificate answer (`GET /vis/certificate/{pin}`: `delivery-confirmation-certificate`
 * with `filename`, `mime-type` and the file in base64 as `image`) → the PDF's bytes. Canada Post documents the
 * certificate as a PDF document; bytes that are not one are refused rather than stored under the wrong type.
 */
export function mapCertificateBody(body: unknown): { status: 'ok'; content: Buffer } | CarrierError {
  const root = objectOf(body);
  const certificate = objectOf(root?.['delivery-confirmation-certificate']);
  const encoded = textOf(certificate?.image)?.replace(/\s+/g, '') ?? '';
  if (encoded === '') {
    const messages = messagesText(root);
    return {
      status: 'error',
      retryable: false,
      message: `Canada Post has no delivery confirmation certificate for this parcel${messages ? ` (${messages})` : ''}`,
    };
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
    return { status: 'error', retryable: false, message: 'Canada Post certificate is not base64 text' };
  }
  const content = Buffer.from(encoded, 'base64');
  if (content.subarray(0, 5).toString('latin1') !== '%PDF-') {
    return { status: 'error', retryable: false, message: 'Canada Post certificate is not a PDF document' };
  }
  return { status: 'ok', content };
}
