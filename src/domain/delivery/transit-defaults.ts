import { EU_COUNTRIES } from '../../core/eu-countries.js';
/**
 * The cold-start table: what a carrier promises for a lane, as a distribution of transit in working days (the
 * working days after acceptance up to and including the first attempt), for predictions with no history in any
 * cell. docs/delivery-intelligence.md ("Cold-start defaults") has the same table for readers; keep the two together.
 */

/** Which kind of lane a shipment travels: within a country, between two EU countries, or any other border. */
export type LaneKind = 'domestic' | 'eu' | 'international';

/**
 * The lane kind of an origin and destination country. A missing country makes it `international`, the widest
 * default, so that a window built on it errs late rather than early.
 */
export function laneKindOf(originCountry: string | null, destinationCountry: string | null): LaneKind {
  const origin = originCountry?.trim().toUpperCase();
  const destination = destinationCountry?.trim().toUpperCase();
  if (!origin || !destination) return 'international';
  if (origin === destination) return 'domestic';
  return EU_COUNTRIES.has(origin) && EU_COUNTRIES.has(destination) ? 'eu' : 'international';
}

/** A published delivery-time promise in working days: fastest, usual and slowest. */
export interface TransitPromise {
  min: number;
  likely: number;
  max: number;
  /** Where the carrier says so (or a page quoting it), and what it says. */
  source: string;
}

/**
 * Share of parcels later than the promise's slowest day. Carriers meet their promises for 90–99% of parcels
 * (Parcel Monitor Q1 2024: on time 96% DE, 98.8% GB; ShipMatrix December 2024: 90.4–96.5% for USPS, FedEx, UPS),
 * so 5% goes past `max`: two thirds one working day late, one third two.
 */
export const LATE_SHARE = 0.05;

/**
 * A promise as a pmf over 0..max+2 working days: inside `[min, max]` each day weighs `1 / (1 + |t − likely|)²`
 * (the usual day carries most, neighbours a quarter of it, the next a ninth), scaled to 1 − LATE_SHARE; then
 * LATE_SHARE on the two days after `max`.
 */
export function pmfOfPromise(promise: Pick<TransitPromise, 'min' | 'likely' | 'max'>): number[] {
  const { min, likely, max } = promise;
  if (!(Number.isInteger(min) && Number.isInteger(likely) && Number.isInteger(max) && 0 <= min && min <= likely && likely <= max)) {
    throw new RangeError(`a transit promise needs whole days 0 ≤ min ≤ likely ≤ max, not ${min}/${likely}/${max}`);
  }
  const pmf = new Array<number>(max + 3).fill(0);
  let total = 0;
  for (let t = min; t <= max; t++) total += 1 / (1 + Math.abs(t - likely)) ** 2;
  for (let t = min; t <= max; t++) pmf[t] = ((1 - LATE_SHARE) * (1 / (1 + Math.abs(t - likely)) ** 2)) / total;
  pmf[max + 1] = (LATE_SHARE * 2) / 3;
  pmf[max + 2] = LATE_SHARE / 3;
  return pmf;
}

/** Promises of one carrier, for all its services or those whose `shipping_service` matches. */
interface TransitRow {
  carrier: string;
  /** Matches the shipment's `shipping_service` (product name or code); absent: any service. */
  service?: RegExp;
  lanes: Partial<Record<LaneKind, TransitPromise>>;
}

/**
 * Lanes without a carrier promise: domestic 1–3 (Parcel Monitor Q1 2024: GB→GB 1.23, DE→DE 1.31 days; USPS's
 * network average 2.4–2.5 days), intra-EU 2–6 (PostNord 2–6 outside Sweden, GLS 3–5 in Europe), other
 * international 3–8 (Colissimo 3–8).
 */
export const GENERIC_TRANSIT: Readonly<Record<LaneKind, TransitPromise>> = {
  domestic: {
    min: 1,
    likely: 2,
    max: 3,
    source:
      'generic domestic: Parcel Monitor Q1 2024 (GB 1.23, DE 1.31 days), https://parcelandpostaltechnologyinternational.com/analysis/insight-unpacking-e-commerce-logistics-in-europe-q1-2024.html; USPS average 2.4–2.5 days, https://www.benzinga.com/pressreleases/22/06/w27673700/postal-service-ends-may-with-high-performance-scores-across-all-mail-categories',
  },
  eu: {
    min: 2,
    likely: 4,
    max: 6,
    source:
      'generic intra-EU: PostNord 2–6 business days outside Sweden, https://www.postnord.se/en/sending/parcels-business/mypack-collect; GLS 3–5 working days in Europe, https://www.crosleyradio.eu/new-page',
  },
  international: {
    min: 3,
    likely: 5,
    max: 8,
    source:
      'generic international: Colissimo "3 à 8 jours" abroad, https://aide.laposte.fr/categorie/envoyer-et-receptionner-un-courrier-colis/receptionner-un-courrier-colis/reception-et-delais',
  },
};

/** Carriers' own promises; the first row of a carrier whose service matches and which has the lane wins. */
export const CARRIER_TRANSIT: readonly TransitRow[] = [
  {
    carrier: 'dhlpde',
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 2,
        source:
          'DHL Paket "innerhalb von ein bis zwei Werktagen", https://www.finanzen.net/nachricht/geld-karriere-lifestyle/so-schnell-kann-es-gehen-das-sind-die-lieferzeiten-von-dhl-regellaufzeit-von-ein-bis-zwei-werktagen-9281583',
      },
    },
  },
  {
    carrier: 'dhlglb',
    service: /parcel-de|^(V01PAK|V62KP|V62WP|V07PAK)$|^dhl paket$|kleinpaket|^warenpost$/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 2,
        source:
          'DHL Paket "innerhalb von ein bis zwei Werktagen", https://www.finanzen.net/nachricht/geld-karriere-lifestyle/so-schnell-kann-es-gehen-das-sind-die-lieferzeiten-von-dhl-regellaufzeit-von-ein-bis-zwei-werktagen-9281583',
      },
    },
  },
  {
    carrier: 'upsglb',
    service: /next day air|^(01|13|14)$/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 1,
        source: 'UPS Next Day Air: next business day, https://www.shipscience.com/does-ups-ground-deliver-on-weekends-9727b/',
      },
    },
  },
  {
    carrier: 'upsglb',
    service: /2nd day air|^(02|59)$/i,
    lanes: {
      domestic: {
        min: 2,
        likely: 2,
        max: 2,
        source: 'UPS 2nd Day Air: two business days, https://www.shipscience.com/does-ups-ground-deliver-on-weekends-9727b/',
      },
    },
  },
  {
    carrier: 'upsglb',
    service: /3 day select|^12$/i,
    lanes: {
      domestic: {
        min: 3,
        likely: 3,
        max: 3,
        source: 'UPS 3 Day Select: three business days, https://www.shipscience.com/does-ups-ground-deliver-on-weekends-9727b/',
      },
    },
  },
  {
    carrier: 'upsglb',
    service: /ground|^03$/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 3,
        max: 5,
        source:
          'UPS Ground "day-definite delivery typically within one to five days" by zone, https://www.ehow.co.uk/about_5209562_long-ground-shipping-usually-take_.html',
      },
    },
  },
  {
    carrier: 'uspsus',
    service: /priority mail express|\bPME\b/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 2,
        source: 'USPS Priority Mail Express: overnight to 2 days, https://mgtblog.com/usps-business-days/',
      },
    },
  },
  {
    carrier: 'uspsus',
    service: /priority mail/i,
    lanes: {
      domestic: { min: 1, likely: 2, max: 3, source: 'USPS Priority Mail: 1–3 business days, https://mgtblog.com/usps-business-days/' },
    },
  },
  {
    carrier: 'uspsus',
    service: /ground advantage/i,
    lanes: {
      domestic: {
        min: 2,
        likely: 3,
        max: 5,
        source: 'USPS Ground Advantage: 2–5 business days, https://eatsip365.com/comparing-each-usps-services-delivery-time',
      },
    },
  },
  {
    carrier: 'postnl',
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 1,
        source: 'PostNL "We strive to deliver your parcel the next working day", https://postnl.nl/en/customer-service/updates',
      },
    },
  },
  {
    carrier: 'royalm',
    service: /tracked 48|\bTPS48|\bTRS48|\bTPN48/i,
    lanes: {
      domestic: {
        min: 2,
        likely: 2,
        max: 3,
        source:
          'Royal Mail Tracked 48: aims at 2–3 working days, https://namegenerator.biz/royal-mail-tracked-48-what-most-people-get-wrong-about-delivery-times-n6f',
      },
    },
  },
  {
    carrier: 'royalm',
    service: /tracked 24|special delivery|\bTPS24|\bTRS24|\bTPN24|\bSD\d/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 1,
        source:
          'Royal Mail Tracked 24: "aim … to deliver your Item within 1 Working Day" (its terms, quoted at https://community.ebay.co.uk/t5/Postage/FREE-Next-Day-Delivery-Setting/td-p/7754294); Special Delivery Guaranteed: next working day',
      },
    },
  },
  {
    carrier: 'royalm',
    lanes: {
      international: {
        min: 3,
        likely: 5,
        max: 7,
        source:
          'Royal Mail International Tracked: Europe 3–5, worldwide 5–7 working days, http://srakaml.blogg.se/2022/july/royal-mail-tracking.html',
      },
    },
  },
  {
    carrier: 'lapost',
    lanes: {
      domestic: {
        min: 1,
        likely: 2,
        max: 2,
        source:
          'Colissimo "48h soit 2 jours ouvrables" in metropolitan France, https://aide.laposte.fr/categorie/envoyer-et-receptionner-un-courrier-colis/receptionner-un-courrier-colis/reception-et-delais',
      },
      eu: {
        min: 3,
        likely: 5,
        max: 8,
        source:
          'Colissimo "3 à 8 jours" abroad, https://aide.laposte.fr/categorie/envoyer-et-receptionner-un-courrier-colis/receptionner-un-courrier-colis/reception-et-delais',
      },
      international: {
        min: 3,
        likely: 5,
        max: 8,
        source:
          'Colissimo "3 à 8 jours" abroad, https://aide.laposte.fr/categorie/envoyer-et-receptionner-un-courrier-colis/receptionner-un-courrier-colis/reception-et-delais',
      },
    },
  },
  {
    carrier: 'inpost',
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 2,
        source: 'InPost Paczkomat: D+1 or D+2 declared, 98% next day, https://inpost.pl/en/for-you/shipments/paczkomaty',
      },
    },
  },
  {
    carrier: 'postnd',
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 1,
        source: 'PostNord MyPack Collect: next business day in Sweden, https://www.postnord.se/en/sending/parcels-business/mypack-collect',
      },
      eu: {
        min: 2,
        likely: 4,
        max: 6,
        source:
          'PostNord MyPack Collect: 2–6 business days outside Sweden, https://www.postnord.se/en/sending/parcels-business/mypack-collect',
      },
      international: {
        min: 2,
        likely: 4,
        max: 6,
        source:
          'PostNord MyPack Collect: 2–6 business days outside Sweden, https://www.postnord.se/en/sending/parcels-business/mypack-collect',
      },
    },
  },
  {
    carrier: 'glsglb',
    lanes: {
      domestic: {
        min: 1,
        likely: 1,
        max: 1,
        source: 'GLS "generally within 24 hours" in the Benelux, https://www.crosleyradio.eu/new-page',
      },
      eu: { min: 3, likely: 4, max: 5, source: 'GLS 3–5 working days within Europe, https://www.crosleyradio.eu/new-page' },
    },
  },
  {
    carrier: 'canpos',
    service: /xpresspost/i,
    lanes: {
      domestic: {
        min: 1,
        likely: 2,
        max: 2,
        source:
          'Canada Post Xpresspost: next day local and regional, 2 days national, http://www.canadapost.ca/tools/pg/manual/PGxpresspt-e.asp',
      },
    },
  },
];

interface ServedDefault {
  pmf: readonly number[];
  source: string;
}

/** The pmf of every promise, computed once. */
const served = new Map<TransitPromise, ServedDefault>();

function serve(promise: TransitPromise): ServedDefault {
  let answer = served.get(promise);
  if (!answer) {
    answer = { pmf: Object.freeze(pmfOfPromise(promise)), source: promise.source };
    served.set(promise, answer);
  }
  return answer;
}

/**
 * Answers by carrier and service text (matching the rows' patterns costs microseconds; a map lookup does not).
 * Service texts are free, so the whole map is dropped past MAX_REMEMBERED.
 */
let answers = new Map<string, Map<string, Partial<Record<LaneKind, ServedDefault>>>>();
let remembered = 0;
const MAX_REMEMBERED = 10_000;

/** The promise that applies: the carrier's for the service and lane, else the generic one of the lane. */
export function transitPromiseOf(
  carrierId: string | null,
  service: string | null,
  originCountry: string | null,
  destinationCountry: string | null,
): TransitPromise {
  const lane = laneKindOf(originCountry, destinationCountry);
  for (const row of CARRIER_TRANSIT) {
    if (row.carrier !== carrierId) continue;
    if (row.service && !(service && row.service.test(service))) continue;
    const promise = row.lanes[lane];
    if (promise) return promise;
  }
  return GENERIC_TRANSIT[lane];
}

/**
 * The cold-start transit distribution of a carrier's service on a lane: `pmf[t]` is the probability of a transit
 * of `t` working days (it sums to 1), from the carrier's published promise where there is one, else the generic
 * default of the lane kind; `source` says which. The array is the caller's own.
 */
export function defaultTransit(
  carrierId: string | null,
  service: string | null,
  originCountry: string | null,
  destinationCountry: string | null,
): { pmf: number[]; source: string } {
  const lane = laneKindOf(originCountry, destinationCountry);
  const byLane = answers.get(carrierId ?? '')?.get(service ?? '');
  let answer = byLane?.[lane];
  if (!answer) {
    answer = serve(transitPromiseOf(carrierId, service, originCountry, destinationCountry));
    if (remembered >= MAX_REMEMBERED) {
      answers = new Map();
      remembered = 0;
    }
    let byService = answers.get(carrierId ?? '');
    if (!byService) {
      byService = new Map();
      answers.set(carrierId ?? '', byService);
    }
    let lanes = byService.get(service ?? '');
    if (!lanes) {
      lanes = {};
      byService.set(service ?? '', lanes);
    }
    lanes[lane] = answer;
    remembered++;
  }
  return { pmf: answer.pmf.slice(), source: answer.source };
}
