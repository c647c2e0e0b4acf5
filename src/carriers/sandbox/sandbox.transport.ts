import type { SandboxErrorBody, SandboxFileResponse, SandboxResponse } from './sandbox.payload.js';
import { proofOfDeliveryPng } from './sandbox.pod.js';
import { fixedHistory, liveHistory, scenarioOf } from './sandbox.scenarios.js';

/** What the sandbox API is asked for one tracking number. */
export interface SandboxScansQuery {
  trackingNumber: string;
  firstPolledAt: Date;
  /** Which try this is; the transient-faults scenario answers by it. */
  attempt: number;
  now: Date;
  /** Seconds per step of the live scenario. */
  stepSeconds: number;
}

const JSON_HEADERS = { 'content-type': 'application/json' };
const TIMEOUT_MS = 10_000;
const THROTTLE_RETRY_AFTER_SECONDS = 30;

function errorResponse(status: number, code: string, message: string, headers: Record<string, string> = {}): SandboxResponse {
  const body: SandboxErrorBody = { error: { code, message } };
  return { outcome: 'response', status, headers: { ...JSON_HEADERS, ...headers }, body };
}

/**
 * The sandbox carrier's transport. A real carrier's transport sends HTTP requests; the sandbox has no
 * server, so this one computes what the server would answer — raw carrier payloads, status codes and
 * faults — and leaves every translation to the mapper.
 */
export class SandboxTransport {
  /** GET /v1/shipments/{trackingNumber}/scans */
  async fetchScans(query: SandboxScansQuery): Promise<SandboxResponse> {
    const scenario = scenarioOf(query.trackingNumber);
    if (scenario === 'transient_faults' && query.attempt === 0) return { outcome: 'timeout', afterMs: TIMEOUT_MS };
    if (scenario === 'transient_faults' && query.attempt === 1) {
      return errorResponse(429, 'RATE_LIMITED', 'Too many requests for this API key', {
        'retry-after': String(THROTTLE_RETRY_AFTER_SECONDS),
      });
    }
    const payload =
      scenario === 'live'
        ? liveHistory(query.trackingNumber, query.firstPolledAt, query.now, query.stepSeconds)
        : fixedHistory(query.trackingNumber, scenario, query.firstPolledAt);
    if (!payload) return errorResponse(404, 'SHIPMENT_NOT_FOUND', `No shipment with tracking number ${query.trackingNumber}`);
    return { outcome: 'response', status: 200, headers: JSON_HEADERS, body: payload };
  }

  /** GET /v1/pod/{documentId} */
  async fetchProofOfDelivery(documentId: string): Promise<SandboxFileResponse> {
    const trackingNumber = documentId.startsWith('POD-') ? documentId.slice(4) : '';
    const scenario = scenarioOf(trackingNumber);
    if (trackingNumber === '' || (scenario !== 'delivered' && scenario !== 'live')) {
      return {
        outcome: 'response',
        status: 404,
        contentType: 'application/json',
        body: { error: { code: 'DOCUMENT_NOT_FOUND', message: `No document ${documentId}` } },
      };
    }
    return { outcome: 'response', status: 200, contentType: 'image/png', content: proofOfDeliveryPng(trackingNumber) };
  }
}
