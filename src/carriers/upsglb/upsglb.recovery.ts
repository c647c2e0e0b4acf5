import type { LabelFormat } from '../../documents/label.types.js';
import { type Json, many, object, text } from './upsglb.json.js';
import { imageOf, type UpsPackageResult } from './upsglb.ship.js';

/**
 * Label Recovery (`POST /api/labels/{version}/recovery`) and Void (`DELETE
 * /api/shipments/{version}/void/cancel/{shipmentidentificationnumber}`), after Shipping.yaml
 * (UPS-API/api-documentation). Recovery finds a booking whose answer was lost by the reference number we
 * sent with it and the shipper number; by reference UPS may answer only the candidates' tracking numbers,
 * whose labels are then asked by tracking number. Pure.
 */

/** Label Recovery's version: v1, "original features of the application". */
export const RECOVERY_VERSION = 'v1';

function labelSpecification(format: LabelFormat): Json {
  return {
    HTTPUserAgent: 'Mozilla/4.5',
    LabelImageFormat: { Code: format === 'zpl' ? 'ZPL' : 'GIF' },
    LabelStockSize: { Height: '6', Width: '4' },
  };
}

/** Asks for the labels of the shipment carrying `reference`, under the shipper number. */
export function recoveryByReference(reference: string, shipperNumber: string, format: LabelFormat): Json {
  return {
    LabelRecoveryRequest: {
      Request: { SubVersion: '1903', TransactionReference: { CustomerContext: reference } },
      LabelSpecification: labelSpecification(format),
      ReferenceValues: { ReferenceNumber: { Value: reference }, ShipperNumber: shipperNumber.toUpperCase() },
    },
  };
}

/** Asks for the labels of the shipment of a tracking number. */
export function recoveryByTrackingNumber(trackingNumber: string, format: LabelFormat): Json {
  return {
    LabelRecoveryRequest: {
      Request: { SubVersion: '1903', TransactionReference: { CustomerContext: trackingNumber } },
      LabelSpecification: labelSpecification(format),
      TrackingNumber: trackingNumber,
    },
  };
}

export interface UpsRecovered {
  /** "Tracking number of the leading package in the shipment": what Void takes. */
  shipmentId: string | null;
  packages: UpsPackageResult[];
  /** Tracking numbers of the shipments carrying the reference, when UPS answers those instead of labels. */
  candidates: string[];
}

/** A `LabelRecoveryResponse` (HTTP 200) → the labels found, or the candidates; null when unreadable. */
export function readRecovery(body: unknown): UpsRecovered | null {
  const response = object(object(body)?.LabelRecoveryResponse);
  if (!response) return null;
  const packages = many(response.LabelResults)
    .map((result) => {
      const image = object(result.LabelImage);
      return { trackingNumber: text(result.TrackingNumber) ?? '', label: imageOf(image?.LabelImageFormat, image?.GraphicImage) };
    })
    .filter((pkg) => pkg.trackingNumber !== '');
  const candidates = many(response.TrackingCandidate)
    .map((candidate) => text(candidate.TrackingNumber))
    .filter((n): n is string => n !== null);
  const shipmentId = text(response.ShipmentIdentificationNumber) ?? packages[0]?.trackingNumber ?? null;
  if (packages.length === 0 && candidates.length === 0) return null;
  return { shipmentId, packages, candidates };
}

/** A `VoidShipmentResponse` (HTTP 200): voided (status code 1) or not, with UPS's description; null when unreadable. */
export function readVoid(body: unknown): { voided: boolean; description: string | null } | null {
  const status = object(object(object(object(body)?.VoidShipmentResponse)?.SummaryResult)?.Status);
  const code = text(status?.Code);
  if (!code) return null;
  // UPS's CIE was seen sending "&#xD;&#xD;1" (carriage returns) in these fields: only the digits count.
  const clean = (value: string | null) => value?.replace(/&#xD;/gi, '').trim() ?? null;
  return { voided: clean(code) === '1', description: clean(text(status?.Description)) };
}

/** Words UPS uses when a reference or shipment is unknown to it. */
export function saysNotFound(messages: ReadonlyArray<{ message?: string }>): boolean {
  return messages.some((m) => /not\s+found|\bno\b[\w\s]{0,30}\bfound\b|unable to (?:find|locate)|does not exist/i.test(m.message ?? ''));
}
