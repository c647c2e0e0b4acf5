import type { CarrierEnvironment } from '../sdk/settings.js';

/**
 * The national DPD companies that run the DPD Web Services (LoginService, ParcelLifeCycleService 2.0), each on
 * its own hosts: the same operation and schema, its own accounts. A configuration names its company with
 * `settings.instance`. Sources in docs/carriers/dpdeur.md.
 */
export interface DpdInstance {
  name: string;
  /** Scheme and host per environment. */
  origins: Record<CarrierEnvironment, string>;
  /** What comes before the service paths on that host (DPD NL's and Belux's stage hosts add `/PublicApi`). */
  prefixes: Record<CarrierEnvironment, string>;
  loginPath: string;
  /** LoginService version (`getAuth` namespace and SOAPAction). */
  loginVersion: string;
  trackingPath: string;
  /** Local times without a country are this company's. */
  timezone: string;
}

export const DPD_INSTANCES = {
  de: {
    name: 'DPD Germany',
    origins: { production: 'https://public-ws.dpd.com', sandbox: 'https://public-ws-stage.dpd.com' },
    prefixes: { production: '', sandbox: '' },
    loginPath: '/services/LoginService/V2_0/',
    loginVersion: '2.0',
    trackingPath: '/services/ParcelLifeCycleService/V2_0/',
    timezone: 'Europe/Berlin',
  },
  nl: {
    name: 'DPD Netherlands',
    origins: { production: 'https://wsshipper.dpd.nl', sandbox: 'https://shipperadmintest.dpd.nl' },
    prefixes: { production: '', sandbox: '/PublicAPI' },
    loginPath: '/soap/services/LoginService/V2_1',
    loginVersion: '2.1',
    trackingPath: '/soap/services/ParcelLifeCycleService/V2_0',
    timezone: 'Europe/Amsterdam',
  },
  be: {
    name: 'DPD Belgium and Luxembourg',
    origins: { production: 'https://wsshipper.dpd.be', sandbox: 'https://shipperadmintest.dpd.be' },
    prefixes: { production: '', sandbox: '/PublicApi' },
    loginPath: '/soap/services/LoginService/V2_1',
    loginVersion: '2.1',
    trackingPath: '/soap/services/ParcelLifeCycleService/V2_0',
    timezone: 'Europe/Brussels',
  },
} as const satisfies Record<string, DpdInstance>;

export type DpdInstanceId = keyof typeof DPD_INSTANCES;

export const DEFAULT_INSTANCE: DpdInstanceId = 'de';

export function instanceOf(settings: Readonly<Record<string, unknown>>): DpdInstance {
  const id = settings.instance;
  return typeof id === 'string' && Object.hasOwn(DPD_INSTANCES, id) ? DPD_INSTANCES[id as DpdInstanceId] : DPD_INSTANCES[DEFAULT_INSTANCE];
}
