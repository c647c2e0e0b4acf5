import type { Redis } from 'ioredis';
import { CarrierMetrics } from './carrier-metrics.js';
import { CarrierHttp } from './http.js';
import { CredentialGates } from './limits.js';
import { OperatorCarrierSettings } from './operator-settings.js';
import { TokenCache } from './token-cache.js';

/** What every networked adapter shares in one process: transport, tokens, limits, operator settings, metrics. */
export interface CarrierToolkit {
  http: CarrierHttp;
  tokens: TokenCache;
  gates: CredentialGates;
  operator: OperatorCarrierSettings;
  metrics: CarrierMetrics;
  now: () => number;
}

export interface ToolkitOptions {
  /** The process environment: `WAYBILL_CARRIER_<ID>_<SETTING>` and `…_BASE_URL` are read from it. */
  env?: Readonly<Record<string, string | undefined>>;
  redis?: Redis | null;
  seal?: (plain: string) => string;
  unseal?: (sealed: string) => string;
  now?: () => number;
  random?: () => number;
}

export function carrierToolkit(options: ToolkitOptions = {}): CarrierToolkit {
  const now = options.now ?? Date.now;
  const metrics = new CarrierMetrics();
  return {
    http: new CarrierHttp(metrics, { now, random: options.random }),
    tokens: new TokenCache({ now, redis: options.redis, seal: options.seal, unseal: options.unseal }),
    gates: new CredentialGates(now),
    operator: new OperatorCarrierSettings(options.env ?? {}),
    metrics,
    now,
  };
}
