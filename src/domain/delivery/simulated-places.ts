/**
 * Where simulated parcels go from and to (src/domain/delivery/simulated-history.ts): cities of the countries the
 * simulated lanes serve, each with its IANA timezone, a weight (roughly its share of parcels in the country) and a
 * generator of postal codes in the city's real format and ranges, and the carriers' sorting hubs per country.
 * The codes are plausible, not checked against a register: lanes are keyed by their first characters.
 */

/** A random number in [0, 1) from the caller's seeded generator. */
export type Random = () => number;

export interface SimulatedPlace {
  city: string;
  country: string;
  timezone: string;
  weight: number;
  postalCode(random: Random): string;
}

export interface SimulatedHub {
  city: string;
  country: string;
  timezone: string;
}

const DIGITS = '0123456789';
/** Letters used in the unit part of Dutch codes (SA, SD and SS are not issued; left out altogether). */
const NL_LETTERS = 'ABCEGHJKLMNPRTVWXZ';
/** Letters of the inward code of British postcodes (C, I, K, M, O and V are never used there). */
const GB_LETTERS = 'ABDEFGHJLNPQRSTUWXYZ';
const EIRCODE_CHARS = 'ACDEFHKNPRTVWXY0123456789';

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function chars(random: Random, alphabet: string, count: number): string {
  let out = '';
  for (let i = 0; i < count; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

/** A number in [from, to] written with `width` digits. */
function ranged(random: Random, from: number, to: number, width: number): string {
  return String(from + Math.floor(random() * (to - from + 1))).padStart(width, '0');
}

/** Five digits starting with one of the prefixes: Germany, France, Italy, Spain and the United States. */
const digits5 = (prefixes: readonly string[]) => (random: Random) => {
  const prefix = pick(random, prefixes);
  return prefix + chars(random, DIGITS, 5 - prefix.length);
};
/** `1234 AB` in the city's range of four digits. */
const dutch = (from: number, to: number) => (random: Random) => `${ranged(random, from, to, 4)} ${chars(random, NL_LETTERS, 2)}`;
/** `SW1A 1AA`: one of the city's outward codes, then a digit and two letters. */
const british = (outward: readonly string[]) => (random: Random) =>
  `${pick(random, outward)} ${chars(random, DIGITS, 1)}${chars(random, GB_LETTERS, 2)}`;
/** Four digits in the city's range (Belgium, Austria, Denmark). */
const digits4 =
  (from: number, to: number, step = 1) =>
  (random: Random) => {
    const value = from + step * Math.floor(random() * (Math.floor((to - from) / step) + 1));
    return String(value).padStart(4, '0');
  };
/** `00-950`: Poland. */
const polish = (from: number, to: number) => (random: Random) => {
  const code = ranged(random, from, to, 5);
  return `${code.slice(0, 2)}-${code.slice(2)}`;
};
/** `D02 X285`: an Eircode of one of the routing keys. */
const eircode = (keys: readonly string[]) => (random: Random) => `${pick(random, keys)} ${chars(random, EIRCODE_CHARS, 4)}`;

function place(city: string, country: string, timezone: string, weight: number, postalCode: (random: Random) => string): SimulatedPlace {
  return { city, country, timezone, weight, postalCode };
}

/** Cities by country. Weights follow population roughly; they only shape which prefixes a lane sees most. */
export const PLACES: Readonly<Record<string, readonly SimulatedPlace[]>> = {
  DE: [
    place('Berlin', 'DE', 'Europe/Berlin', 8, digits5(['10', '12', '13'])),
    place('Hamburg', 'DE', 'Europe/Berlin', 5, digits5(['20', '21', '22'])),
    place('München', 'DE', 'Europe/Berlin', 4, digits5(['80', '81'])),
    place('Köln', 'DE', 'Europe/Berlin', 3, digits5(['50', '51'])),
    place('Frankfurt am Main', 'DE', 'Europe/Berlin', 2.5, digits5(['603', '604', '605'])),
    place('Stuttgart', 'DE', 'Europe/Berlin', 2, digits5(['701', '703', '705'])),
    place('Düsseldorf', 'DE', 'Europe/Berlin', 2, digits5(['402', '404', '405'])),
    place('Leipzig', 'DE', 'Europe/Berlin', 2, digits5(['041', '043'])),
    place('Dresden', 'DE', 'Europe/Berlin', 1.5, digits5(['010', '011'])),
    place('Hannover', 'DE', 'Europe/Berlin', 1.5, digits5(['301', '304', '306'])),
  ],
  NL: [
    place('Amsterdam', 'NL', 'Europe/Amsterdam', 9, dutch(1011, 1109)),
    place('Rotterdam', 'NL', 'Europe/Amsterdam', 6, dutch(3011, 3089)),
    place('Den Haag', 'NL', 'Europe/Amsterdam', 5, dutch(2491, 2597)),
    place('Utrecht', 'NL', 'Europe/Amsterdam', 3.5, dutch(3511, 3585)),
    place('Eindhoven', 'NL', 'Europe/Amsterdam', 2.5, dutch(5611, 5658)),
    place('Groningen', 'NL', 'Europe/Amsterdam', 2, dutch(9711, 9747)),
  ],
  GB: [
    place('London', 'GB', 'Europe/London', 9, british(['E1', 'EC1A', 'N1', 'NW1', 'SE1', 'SW1A', 'SW11', 'W1D'])),
    place('Manchester', 'GB', 'Europe/London', 2.5, british(['M1', 'M4', 'M14', 'M20'])),
    place('Birmingham', 'GB', 'Europe/London', 2.5, british(['B1', 'B5', 'B15', 'B29'])),
    place('Leeds', 'GB', 'Europe/London', 2, british(['LS1', 'LS6', 'LS11'])),
    place('Glasgow', 'GB', 'Europe/London', 2, british(['G1', 'G3', 'G12', 'G41'])),
    place('Bristol', 'GB', 'Europe/London', 1.5, british(['BS1', 'BS6', 'BS8'])),
    place('Edinburgh', 'GB', 'Europe/London', 1.5, british(['EH1', 'EH3', 'EH8'])),
  ],
  FR: [
    place('Paris', 'FR', 'Europe/Paris', 9, (random) => `750${ranged(random, 1, 20, 2)}`),
    place('Lyon', 'FR', 'Europe/Paris', 3, (random) => `6900${ranged(random, 1, 9, 1)}`),
    place('Marseille', 'FR', 'Europe/Paris', 3, (random) => `130${ranged(random, 1, 16, 2)}`),
    place('Toulouse', 'FR', 'Europe/Paris', 2, digits5(['31000', '31100', '31200', '31300', '31400', '31500'])),
    place('Lille', 'FR', 'Europe/Paris', 2, digits5(['59000', '59160', '59260', '59800'])),
    place('Bordeaux', 'FR', 'Europe/Paris', 2, digits5(['33000', '33100', '33200', '33300', '33800'])),
    place('Nantes', 'FR', 'Europe/Paris', 1.5, digits5(['44000', '44100', '44200', '44300'])),
  ],
  BE: [
    place('Brussel', 'BE', 'Europe/Brussels', 4, digits4(1000, 1210, 10)),
    place('Antwerpen', 'BE', 'Europe/Brussels', 3, digits4(2000, 2660, 10)),
    place('Gent', 'BE', 'Europe/Brussels', 2, digits4(9000, 9052, 1)),
    place('Liège', 'BE', 'Europe/Brussels', 2, digits4(4000, 4032, 1)),
  ],
  AT: [
    place('Wien', 'AT', 'Europe/Vienna', 6, (random) => `1${ranged(random, 1, 23, 2)}0`),
    place('Graz', 'AT', 'Europe/Vienna', 2, digits4(8010, 8055, 1)),
    place('Linz', 'AT', 'Europe/Vienna', 1.5, digits4(4020, 4040, 10)),
  ],
  PL: [
    place('Warszawa', 'PL', 'Europe/Warsaw', 4, polish(1, 4999)),
    place('Kraków', 'PL', 'Europe/Warsaw', 2, polish(30001, 31999)),
    place('Wrocław', 'PL', 'Europe/Warsaw', 1.5, polish(50001, 54999)),
  ],
  IT: [
    place('Milano', 'IT', 'Europe/Rome', 3, (random) => `201${ranged(random, 21, 62, 2)}`),
    place('Roma', 'IT', 'Europe/Rome', 4, (random) => `001${ranged(random, 18, 99, 2)}`),
  ],
  ES: [
    place('Madrid', 'ES', 'Europe/Madrid', 4, (random) => `280${ranged(random, 1, 55, 2)}`),
    place('Barcelona', 'ES', 'Europe/Madrid', 3, (random) => `080${ranged(random, 1, 42, 2)}`),
  ],
  IE: [
    place('Dublin', 'IE', 'Europe/Dublin', 4, eircode(['D01', 'D02', 'D04', 'D06', 'D08', 'D15', 'D24'])),
    place('Cork', 'IE', 'Europe/Dublin', 1.5, eircode(['T12', 'T23'])),
  ],
  US: [
    place('New York', 'US', 'America/New_York', 8, digits5(['100', '101', '102', '112'])),
    place('Boston', 'US', 'America/New_York', 2, digits5(['021', '022'])),
    place('Atlanta', 'US', 'America/New_York', 2.5, digits5(['303'])),
    place('Chicago', 'US', 'America/Chicago', 5, digits5(['606'])),
    place('Houston', 'US', 'America/Chicago', 4, digits5(['770'])),
    place('Denver', 'US', 'America/Denver', 2, digits5(['802'])),
    place('Phoenix', 'US', 'America/Phoenix', 2.5, digits5(['850'])),
    place('Los Angeles', 'US', 'America/Los_Angeles', 6, digits5(['900', '913'])),
    place('Seattle', 'US', 'America/Los_Angeles', 2, digits5(['981'])),
  ],
};

function hub(city: string, country: string, timezone: string): SimulatedHub {
  return { city, country, timezone };
}

/** Sorting hubs per country, where in-transit scans happen; international parcels also clear customs at one. */
export const HUBS: Readonly<Record<string, readonly SimulatedHub[]>> = {
  DE: [
    hub('Leipzig', 'DE', 'Europe/Berlin'),
    hub('Hannover', 'DE', 'Europe/Berlin'),
    hub('Nürnberg', 'DE', 'Europe/Berlin'),
    hub('Dortmund', 'DE', 'Europe/Berlin'),
  ],
  NL: [hub('Nieuwegein', 'NL', 'Europe/Amsterdam'), hub('Amsterdam', 'NL', 'Europe/Amsterdam')],
  GB: [hub('Warrington', 'GB', 'Europe/London'), hub('Daventry', 'GB', 'Europe/London'), hub('Heathrow', 'GB', 'Europe/London')],
  FR: [hub('Chilly-Mazarin', 'FR', 'Europe/Paris'), hub('Saint-Priest', 'FR', 'Europe/Paris')],
  BE: [hub('Brussel X', 'BE', 'Europe/Brussels')],
  AT: [hub('Wien-Inzersdorf', 'AT', 'Europe/Vienna')],
  PL: [hub('Stryków', 'PL', 'Europe/Warsaw')],
  IT: [hub('Bologna', 'IT', 'Europe/Rome')],
  ES: [hub('Zaragoza', 'ES', 'Europe/Madrid')],
  IE: [hub('Dublin Mail Centre', 'IE', 'Europe/Dublin')],
  US: [
    hub('Louisville', 'US', 'America/Kentucky/Louisville'),
    hub('Chicago', 'US', 'America/Chicago'),
    hub('Dallas', 'US', 'America/Chicago'),
    hub('Ontario', 'US', 'America/Los_Angeles'),
  ],
};

/** A city of `country` by weight. */
export function placeIn(country: string, random: Random): SimulatedPlace {
  const places = PLACES[country];
  let total = 0;
  for (const p of places) total += p.weight;
  let left = random() * total;
  for (const p of places) {
    left -= p.weight;
    if (left < 0) return p;
  }
  return places[places.length - 1];
}

/** One of the country's hubs. */
export function hubIn(country: string, random: Random): SimulatedHub {
  return pick(random, HUBS[country]);
}

/**
 * The United States in four bands by the first digit of the ZIP code (0–2 the north-east, 3–4 the south-east and
 * Ohio valley, 5–7 the middle, 8–9 the mountain and Pacific states): how many bands a parcel crosses stands for its
 * ground zone.
 */
export function usBand(postalCode: string): number {
  const first = Number(postalCode[0]);
  if (first <= 2) return 0;
  if (first <= 4) return 1;
  if (first <= 7) return 2;
  return 3;
}
