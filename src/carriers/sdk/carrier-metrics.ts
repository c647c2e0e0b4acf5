import client from 'prom-client';

/** How a carrier call ended, as counted in `waybill_carrier_requests_total{outcome}`. */
export type CallOutcome =
  | 'ok'
  | 'client_error'
  | 'unauthorized'
  | 'throttled'
  | 'server_error'
  | 'timeout'
  | 'network'
  | 'too_large'
  | 'aborted';

const MAX_CODE_LABELS = 500;

/** Carrier calls and mapping gaps, in their own registry (the HTTP metrics endpoint merges it). */
export class CarrierMetrics {
  readonly registry = new client.Registry();
  private readonly requests = new client.Counter({
    name: 'waybill_carrier_requests_total',
    help: 'Calls to carrier APIs by carrier and outcome (ok, client_error, unauthorized, throttled, server_error, timeout, network, too_large, aborted)',
    labelNames: ['carrier', 'outcome'],
    registers: [this.registry],
  });
  private readonly latency = new client.Histogram({
    name: 'waybill_carrier_request_duration_seconds',
    help: 'Duration of calls to carrier APIs, by carrier',
    labelNames: ['carrier'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });
  private readonly unmapped = new client.Counter({
    name: 'waybill_carrier_unmapped_codes_total',
    help: 'Carrier event codes without a standard event key, by carrier and code',
    labelNames: ['carrier', 'code'],
    registers: [this.registry],
  });
  private readonly registrations = new client.Counter({
    name: 'waybill_carrier_registrations_total',
    help: 'Tracking numbers registered with an aggregator (each billed once), by carrier',
    labelNames: ['carrier'],
    registers: [this.registry],
  });
  private readonly codesSeen = new Map<string, Set<string>>();

  call(carrier: string, outcome: CallOutcome, seconds: number): void {
    this.requests.inc({ carrier, outcome });
    this.latency.observe({ carrier }, seconds);
  }

  /** Numbers an aggregator accepted for tracking (each billed once). */
  registered(carrier: string, count: number): void {
    if (count > 0) this.registrations.inc({ carrier }, count);
  }

  unmappedCode(carrier: string, code: string): void {
    // Codes come from the carrier's answer: bounded, so a carrier sending noise cannot grow the registry without end.
    const seen = this.codesSeen.get(carrier) ?? new Set<string>();
    this.codesSeen.set(carrier, seen);
    let label = code.slice(0, 40);
    if (!seen.has(label)) {
      if (seen.size >= MAX_CODE_LABELS) label = 'other';
      else seen.add(label);
    }
    this.unmapped.inc({ carrier, code: label });
  }
}
