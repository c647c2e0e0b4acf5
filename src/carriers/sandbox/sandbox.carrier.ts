import type { CarrierAdapter, CarrierRecord } from '../carrier.js';

/** The simulated carrier: everything a merchant can do against a real carrier can be tried here. */
export class SandboxCarrier implements CarrierAdapter {
  static readonly id = 'sandbx';

  readonly record: CarrierRecord = {
    id: SandboxCarrier.id,
    name: 'Waybill Sandbox',
    country_iso: ['DE', 'NL', 'FR', 'GB', 'US', 'SG'],
    language: ['en'],
    supported_languages: ['en'],
    contact: null,
    site_link: null,
  };
}
