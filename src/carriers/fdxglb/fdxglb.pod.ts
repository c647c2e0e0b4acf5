import type { CarrierError } from '../carrier.js';
import type { FedexProofRequest } from './fdxglb.mapper.js';
import type { FedexDocumentRequest, FedexDocumentResponse } from './fdxglb.payload.js';

/**
 * FedEx signature proof of delivery (SPOD): `POST /track/v1/trackingdocuments` with documentType
 * SIGNATURE_PROOF_OF_DELIVERY answers the document as base64 text in `output.document[]`. We ask for FedEx's
 * PDF letter (its default format), which holds the signature and the delivery details.
 */

export const SPOD_FORMAT = 'PDF';

/** The request body for one piece's signature proof. */
export function signatureProofRequest(piece: FedexProofRequest): FedexDocumentRequest {
  const trackingNumberInfo: FedexDocumentRequest['trackDocumentSpecification'][number]['trackingNumberInfo'] = {
    trackingNumber: piece.trackingNumber,
  };
  if (piece.trackingNumberUniqueId) trackingNumberInfo.trackingNumberUniqueId = piece.trackingNumberUniqueId;
  if (piece.carrierCode) trackingNumberInfo.carrierCode = piece.carrierCode;
  return {
    trackDocumentDetail: { documentType: 'SIGNATURE_PROOF_OF_DELIVERY', documentFormat: SPOD_FORMAT },
    trackDocumentSpecification: [{ trackingNumberInfo }],
  };
}

/** Stable identifier of a piece's proof at FedEx: fetched again only if FedEx's piece identity changes. */
export function signatureProofReference(piece: FedexProofRequest): string {
  return `fedex-spod:${piece.trackingNumberUniqueId ?? piece.trackingNumber}`;
}

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/;

/**
 * The document bytes of a documents answer; a failure when it holds none (FedEx has no signature for the
 * piece yet, or none at all). The first document is the letter; FedEx sends one per request.
 */
export function signatureProofContent(body: unknown): { status: 'ok'; content: Buffer } | CarrierError {
  const output = typeof body === 'object' && body !== null ? (body as FedexDocumentResponse).output : undefined;
  const documents = output && typeof output === 'object' && Array.isArray(output.document) ? output.document : [];
  const first = documents.find((document): document is string => typeof document === 'string' && document.trim() !== '');
  if (!first || !BASE64.test(first)) {
    return { status: 'error', retryable: true, message: 'FedEx has no signature proof of delivery for this number (yet)' };
  }
  const content = Buffer.from(first.replace(/\s+/g, ''), 'base64');
  if (content.length === 0) {
    return { status: 'error', retryable: true, message: 'FedEx sent an empty signature proof of delivery' };
  }
  return { status: 'ok', content };
}
