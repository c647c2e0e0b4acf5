import { type PublicHolidays, publicHolidaysOf } from './holidays.js';
import { type WorkingCalendar, weekdayOf } from './working-calendar.js';

/**
 * The weekdays a carrier delivers on, one bit per weekday as `Date#getUTCDay` numbers them: bit 0 Sunday, bit 1
 * Monday … bit 6 Saturday.
 */
export type WeekdayMask = number;

export const MONDAY_TO_FRIDAY: WeekdayMask = 0b0111110;
export const MONDAY_TO_SATURDAY: WeekdayMask = 0b1111110;
export const EVERY_DAY: WeekdayMask = 0b1111111;

/** A carrier's delivery weekdays for one service (or all of its services), with where that is written. */
export interface DeliveryDays {
  mask: WeekdayMask;
  /** Where the carrier (or, failing its own page, a page quoting it) says so. */
  source: string;
}

interface ServiceDays extends DeliveryDays {
  /** Matches the shipment's `shipping_service` (the carrier's product name or code). */
  service: RegExp;
}

interface CarrierDays extends DeliveryDays {
  /** Services delivered on other days than the carrier's default; the first that matches wins. */
  services?: readonly ServiceDays[];
}

/**
 * A service name that asks for Saturday delivery (UPS, FedEx Express, DHL Express, DPD and GLS sell it as an
 * option on top of a Monday–Friday product; a merchant who buys it usually names the service after it).
 */
const SATURDAY_OPTION = /saturday|samstag|zaterdag|samedi/i;

/** Monday–Friday: what a carrier without documented delivery days gets (EasyPost and Retino count the same). */
const UNKNOWN_CARRIER: DeliveryDays = {
  mask: MONDAY_TO_FRIDAY,
  source: 'no documented delivery days: Monday–Friday, the business days EasyPost and Retino count (docs/delivery-intelligence.md)',
};

/** DHL Paket's products within Germany (docs/carriers/dhlpde.md), by code, name or DHL Unified's `service`. */
const DHL_PAKET_DOMESTIC = /parcel-de|^(V01PAK|V62KP|V62WP|V07PAK)$|^dhl paket$|kleinpaket|^warenpost$/i;
/** DHL Paket's products abroad, delivered by the destination country's partner. */
const DHL_PAKET_ABROAD = /^(V53WPAK|V54EPAK|V66WPI)$|international|europaket/i;

/**
 * Delivery weekdays per carrier id and service. Public holidays are taken off separately (the destination's).
 * docs/delivery-intelligence.md ("Working days") has the same table for readers; keep the two together.
 */
export const CARRIER_DELIVERY_DAYS: Readonly<Record<string, CarrierDays>> = {
  // The sandbox carrier: Monday–Friday by definition (issue 39; docs/sandbox.md).
  sandbx: { mask: MONDAY_TO_FRIDAY, source: 'Waybill definition for the sandbox carrier' },
  // DHL Paket counts Monday–Saturday as Werktage and delivers on them. Its products abroad are delivered by the
  // destination's partner, whose days are not known here: Monday–Friday.
  // https://www.derinfokanal.de/wie-lange-liefert-dhl-wirklich-ein-umfassender-ratgeber-zu-lieferzeiten-und-was-sie-beeinflusst
  dhlpde: {
    mask: MONDAY_TO_SATURDAY,
    source: 'https://www.derinfokanal.de/wie-lange-liefert-dhl-wirklich-ein-umfassender-ratgeber-zu-lieferzeiten-und-was-sie-beeinflusst',
    services: [{ service: DHL_PAKET_ABROAD, mask: MONDAY_TO_FRIDAY, source: UNKNOWN_CARRIER.source }],
  },
  // DHL Unified tracks every division: Express delivers Monday–Friday (Saturday a paid option in selected cities);
  // parcels of DHL Paket (service `parcel-de`) follow its Monday–Saturday.
  // https://www.clickpost.ai/blog/does-dhl-deliver-on-saturday-and-sunday
  dhlglb: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://www.clickpost.ai/blog/does-dhl-deliver-on-saturday-and-sunday',
    services: [
      {
        service: DHL_PAKET_DOMESTIC,
        mask: MONDAY_TO_SATURDAY,
        source:
          'https://www.derinfokanal.de/wie-lange-liefert-dhl-wirklich-ein-umfassender-ratgeber-zu-lieferzeiten-und-was-sie-beeinflusst',
      },
      {
        service: SATURDAY_OPTION,
        mask: MONDAY_TO_SATURDAY,
        source: 'https://www.clickpost.ai/blog/does-dhl-deliver-on-saturday-and-sunday',
      },
    ],
  },
  // UPS counts business days Monday–Friday for every service; Saturday delivery is an option bought per shipment.
  // http://www.maxxprod.com/mpi/shipping.html, https://www.shipscience.com/does-ups-ground-deliver-on-weekends-9727b/
  upsglb: {
    mask: MONDAY_TO_FRIDAY,
    source: 'http://www.maxxprod.com/mpi/shipping.html',
    services: [
      {
        service: SATURDAY_OPTION,
        mask: MONDAY_TO_SATURDAY,
        source: 'https://www.shipscience.com/does-ups-ground-deliver-on-weekends-9727b/',
      },
    ],
  },
  // FedEx Express and Ground: Monday–Friday business days (Saturday an option for Express). FedEx Home Delivery
  // counts every day: it reaches 98% of the US population on Saturdays and 95% on Sundays.
  // https://www.roverlandparts.com/fedexgroundmap.aspx, https://querysprout.com/what-are-fedex-business-days/
  fdxglb: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://www.roverlandparts.com/fedexgroundmap.aspx',
    services: [
      { service: /home delivery|GROUND_HOME_DELIVERY/i, mask: EVERY_DAY, source: 'https://querysprout.com/what-are-fedex-business-days/' },
      { service: SATURDAY_OPTION, mask: MONDAY_TO_SATURDAY, source: 'https://querysprout.com/what-days-does-fedex-deliver/' },
    ],
  },
  // USPS delivers packages Monday–Saturday; Priority Mail Express 7 days a week, 365 days a year.
  // https://www.reference.com/web?q=usps+how+long+to+deliver+letter, https://mgtblog.com/usps-business-days/
  uspsus: {
    mask: MONDAY_TO_SATURDAY,
    source: 'https://www.reference.com/web?q=usps+how+long+to+deliver+letter&qo=relatedSearchBing&o=600605&l=dir&sga=1',
    services: [{ service: /priority mail express|\bPME\b/i, mask: EVERY_DAY, source: 'https://mgtblog.com/usps-business-days/' }],
  },
  // PostNL delivers parcels Monday–Saturday (letters Tuesday–Saturday); a Sunday is an extra delivery day in peak.
  // https://postnl.nl/en/about-postnl/press-news/news/festive-season-postnl-is-ready-with-extra-delivery-trips-and-ordering-tips
  postnl: {
    mask: MONDAY_TO_SATURDAY,
    source: 'https://postnl.nl/en/about-postnl/press-news/news/festive-season-postnl-is-ready-with-extra-delivery-trips-and-ordering-tips',
  },
  // Colissimo delivers Monday–Saturday, never on Sundays or public holidays (its 48 h are "jours ouvrables").
  // https://www.minutenews.fr/livraison-colissimo-dimanche-horaires-points-contact-poste/
  lapost: { mask: MONDAY_TO_SATURDAY, source: 'https://www.minutenews.fr/livraison-colissimo-dimanche-horaires-points-contact-poste/' },
  // GLS delivers on weekdays Monday–Friday; Saturday delivery is an option in some German cities.
  // https://www.crosleyradio.eu/new-page, http://gls-ireland.com/PL/en/flexdelivery-service
  glsglb: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://www.crosleyradio.eu/new-page',
    services: [{ service: SATURDAY_OPTION, mask: MONDAY_TO_SATURDAY, source: 'http://gls-ireland.com/PL/en/flexdelivery-service' }],
  },
  // InPost: parcel lockers take pickups Monday–Friday and deliver D+1; weekend delivery to lockers is its own
  // product ("Paczka w Weekend"). https://inpost.pl/en/for-you/shipments/paczkomaty,
  // https://businessinsider.com.pl/biznes/inpost-przez-silny-wiatr-zawiesza-paczke-w-weekend/6zyxq0m
  inpost: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://inpost.pl/en/for-you/shipments/paczkomaty',
    services: [
      {
        service: /weekend/i,
        mask: EVERY_DAY,
        source: 'https://businessinsider.com.pl/biznes/inpost-przez-silny-wiatr-zawiesza-paczke-w-weekend/6zyxq0m',
      },
    ],
  },
  // PostNord delivers to the door on weekdays; parcel lockers and service points get parcels Monday–Saturday
  // (Denmark). https://www.bt.dk/erhverv/nu-vil-postnord-levere-pakker-alle-ugens-dage,
  // https://docs.smartsend.io/carriers/postnord/shipping-options
  postnd: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://www.bt.dk/erhverv/nu-vil-postnord-levere-pakker-alle-ugens-dage',
    services: [
      {
        service: /parcel locker|service point|pakkeboks|pakkeshop/i,
        mask: MONDAY_TO_SATURDAY,
        source: 'https://docs.smartsend.io/carriers/postnord/shipping-options',
      },
    ],
  },
  // Royal Mail delivers six days a week, Saturdays included (Tracked 24 and 48 among them); Special Delivery
  // Guaranteed is next working day Monday–Friday, Saturday a service of its own.
  // https://mailing-stuff.com/royal-mail-makes-postal-service-announcement-uk-postcodes-affected/323725,
  // https://mailtw.org/does-next-day-delivery-include-saturday-royal-mail
  royalm: {
    mask: MONDAY_TO_SATURDAY,
    source: 'https://mailing-stuff.com/royal-mail-makes-postal-service-announcement-uk-postcodes-affected/323725',
    services: [
      {
        service: /special delivery.*saturday/i,
        mask: MONDAY_TO_SATURDAY,
        source: 'https://mailtw.org/does-next-day-delivery-include-saturday-royal-mail',
      },
      {
        service: /special delivery/i,
        mask: MONDAY_TO_FRIDAY,
        source: 'https://mailtw.org/does-next-day-delivery-include-saturday-royal-mail',
      },
    ],
  },
  // DPD delivers Monday–Friday; Saturday delivery is an option booked for it; no Sundays.
  // https://postagegeeks.com/what-time-does-dpd-deliver-until/
  dpdeur: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://postagegeeks.com/what-time-does-dpd-deliver-until/',
    services: [
      { service: SATURDAY_OPTION, mask: MONDAY_TO_SATURDAY, source: 'https://postagegeeks.com/what-time-does-dpd-deliver-until/' },
    ],
  },
  // Canada Post delivers parcels Monday–Friday; Saturday delivery is a paid option of Xpresspost and Priority.
  // https://stallionexpress.ca/blog/canada-post-deliver-weekends
  canpos: {
    mask: MONDAY_TO_FRIDAY,
    source: 'https://stallionexpress.ca/blog/canada-post-deliver-weekends',
    services: [
      { service: SATURDAY_OPTION, mask: MONDAY_TO_SATURDAY, source: 'https://stallionexpress.ca/blog/canada-post-deliver-weekends' },
    ],
  },
  // Australia Post counts delivery times in business days; weekend parcel delivery runs only in the weeks before
  // Christmas. https://auspost.com.au/service-updates,
  // https://parcelandpostaltechnologyinternational.com/news/peak/australia-post-reinstates-weekend-deliveries-for-peak-season.html
  auspos: { mask: MONDAY_TO_FRIDAY, source: 'https://auspost.com.au/service-updates' },
  // Aggregators: the courier behind a number is not known here (pass the courier's own id when it is).
  ship24: UNKNOWN_CARRIER,
  trk17t: UNKNOWN_CARRIER,
};

/** The delivery weekdays of a carrier's service: the first service rule matching `service`, else the carrier's. */
export function deliveryDaysOf(carrierId: string | null, service: string | null): DeliveryDays {
  const carrier = carrierId ? CARRIER_DELIVERY_DAYS[carrierId] : undefined;
  if (!carrier || !Object.hasOwn(CARRIER_DELIVERY_DAYS, carrierId as string)) return UNKNOWN_CARRIER;
  const rule = service ? carrier.services?.find((candidate) => candidate.service.test(service)) : undefined;
  return rule ?? carrier;
}

/** A carrier's working days at one destination: its delivery weekdays less the destination's public holidays. */
class CarrierCalendar implements WorkingCalendar {
  constructor(
    readonly mask: WeekdayMask,
    private readonly holidays: PublicHolidays,
  ) {}

  isWorkingDay(date: string): boolean {
    const weekday = weekdayOf(date);
    return weekday >= 0 && (this.mask & (1 << weekday)) !== 0 && !this.holidays.has(date);
  }
}

/** Calendars by mask and holiday calendar: a handful of objects however many shipments ask. */
const calendars = new Map<string, CarrierCalendar>();
/**
 * Calendars by the arguments they were asked with, nested (carrier, service, country, region) so that asking
 * builds no key string. Service and region texts are free, so the whole tree is dropped past MAX_REMEMBERED.
 */
type Tree = Map<string, Map<string, Map<string, Map<string, CarrierCalendar>>>>;
let byArguments: Tree = new Map();
let remembered = 0;
const MAX_REMEMBERED = 10_000;

function childOf<K, V>(map: Map<K, V>, key: K, create: () => V): V {
  let child = map.get(key);
  if (child === undefined) {
    child = create();
    map.set(key, child);
  }
  return child;
}

function buildCalendar(
  carrierId: string | null,
  service: string | null,
  destinationCountry: string | null,
  region: string | null,
): CarrierCalendar {
  const { mask } = deliveryDaysOf(carrierId, service);
  const holidays = publicHolidaysOf(destinationCountry, region);
  return childOf(calendars, `${mask}|${holidays.country}|${holidays.region ?? ''}`, () => new CarrierCalendar(mask, holidays));
}

/**
 * The working calendar of a carrier's service delivering to a country (and region: ISO 3166-2 subdivision, `BY`
 * or `DE-BY`): the carrier's delivery weekdays for that service less the destination's public holidays. Unknown
 * carrier: Monday–Friday; unknown or missing country: no holidays. Called for every prediction, so the calendar
 * objects are kept and shared; asking again costs one map lookup.
 */
export function calendarFor(
  carrierId: string | null,
  service: string | null,
  destinationCountry: string | null,
  region?: string | null,
): WorkingCalendar {
  const byRegion = byArguments
    .get(carrierId ?? '')
    ?.get(service ?? '')
    ?.get(destinationCountry ?? '');
  const known = byRegion?.get(region ?? '');
  if (known) return known;
  const calendar = buildCalendar(carrierId, service, destinationCountry, region ?? null);
  if (remembered >= MAX_REMEMBERED) {
    byArguments = new Map();
    remembered = 0;
  }
  const byService = childOf(byArguments, carrierId ?? '', () => new Map());
  const byCountry = childOf(byService, service ?? '', () => new Map());
  childOf(byCountry, destinationCountry ?? '', () => new Map()).set(region ?? '', calendar);
  remembered++;
  return calendar;
}
