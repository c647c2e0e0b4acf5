import { normalizeTrackingNumber } from '../carriers/detect/index.js';
import type { Repositories } from '../db/repositories/index.js';
import { ValidationError } from './errors.js';
import { type CarrierCandidate, carrierCandidates } from './shipments/tracking-detection.js';

/** Which carriers a tracking number can belong to, and which of them the account has configured. */
export class CarrierDetectionService {
  constructor(private readonly repos: Repositories) {}

  async detect(accountId: number, trackingNumber: string): Promise<{ tracking_number: string; candidates: CarrierCandidate[] }> {
    const number = normalizeTrackingNumber(trackingNumber);
    if (number === '') throw ValidationError.at(['tracking_number'], 'Enter a tracking number.');
    const configs = await this.repos.carrierConfigs.listForAccount(accountId);
    return { tracking_number: number, candidates: carrierCandidates(number, configs) };
  }
}
