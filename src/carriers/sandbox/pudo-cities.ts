import type { SeededRandom } from './pudo-random.js';

/**
 * The cities the sandbox carrier has PUDO locations in. Each city is split into a grid of districts
 * over a square around its centre; every district has its own postal code, so that postal codes are
 * geographically coherent and a postal-code search lands near the right locations.
 */
export interface SandboxCity {
  /** Three letters used in location ids, e.g. `BER`. */
  code: string;
  city: string;
  country_code: string;
  country: string;
  state_or_province: string | null;
  region: string | null;
  time_zone: string;
  lat: number;
  lng: number;
  /** Locations lie within this distance of the centre. */
  radius_meters: number;
  /** Districts per side of the grid. */
  grid: number;
  /** Number of locations at scale 1. */
  count: number;
  /** Whether street lines read "12 Main Street" rather than "Hauptstraße 12". */
  number_first: boolean;
  /** International prefix and area code of phone numbers; null where lockers and shops list none. */
  phone_prefix: string;
  streets: readonly string[];
  shop_names: readonly string[];
  /** Postal code of a location in district `district` (0 … grid² − 1). */
  postal_code(district: number, random: SeededRandom): string;
}

const LETTERS = 'ABCDEFGHJKLMNPRSTVWXZ';
const LONDON_DISTRICTS = [
  'NW6',
  'NW8',
  'NW3',
  'N7',
  'N4',
  'N16',
  'W11',
  'W2',
  'NW1',
  'N1',
  'E8',
  'E17',
  'W14',
  'W8',
  'W1D',
  'WC1N',
  'EC1A',
  'E2',
  'W6',
  'SW7',
  'SW1A',
  'WC2H',
  'EC2M',
  'E1',
  'SW3',
  'SW11',
  'SE1',
  'SE5',
  'E14',
  'E3',
  'SW19',
  'SW4',
  'SW9',
  'SE15',
  'SE22',
  'SE10',
];

export const SANDBOX_CITIES: readonly SandboxCity[] = [
  {
    code: 'BER',
    city: 'Berlin',
    country_code: 'DE',
    country: 'Germany',
    state_or_province: 'Berlin',
    region: null,
    time_zone: 'Europe/Berlin',
    lat: 52.52,
    lng: 13.405,
    radius_meters: 12_000,
    grid: 6,
    count: 700,
    number_first: false,
    phone_prefix: '+4930',
    streets: [
      'Friedrichstraße',
      'Torstraße',
      'Kastanienallee',
      'Sonnenallee',
      'Karl-Marx-Allee',
      'Schönhauser Allee',
      'Kurfürstendamm',
      'Oranienstraße',
      'Bergmannstraße',
      'Invalidenstraße',
      'Prenzlauer Allee',
      'Hermannstraße',
      'Müllerstraße',
      'Turmstraße',
      'Frankfurter Allee',
      'Warschauer Straße',
    ],
    shop_names: ['Späti', 'Kiosk', 'Schreibwaren', 'Paketshop', 'Blumen', 'Getränke'],
    postal_code: (district) => String(10115 + district * 113),
  },
  {
    code: 'AMS',
    city: 'Amsterdam',
    country_code: 'NL',
    country: 'Netherlands',
    state_or_province: 'Noord-Holland',
    region: null,
    time_zone: 'Europe/Amsterdam',
    lat: 52.3676,
    lng: 4.9041,
    radius_meters: 7_000,
    grid: 6,
    count: 450,
    number_first: false,
    phone_prefix: '+3120',
    streets: [
      'Prinsengracht',
      'Keizersgracht',
      'Herengracht',
      'Damrak',
      'Kalverstraat',
      'Overtoom',
      'Ferdinand Bolstraat',
      'Javastraat',
      'Van Woustraat',
      'Haarlemmerdijk',
      'Kinkerstraat',
      'Utrechtsestraat',
      'Czaar Peterstraat',
      'Rijnstraat',
    ],
    shop_names: ['Tabakszaak', 'Boekhandel', 'Supermarkt', 'Drogisterij', 'Servicepunt'],
    // a district is the four-digit part; three letter pairs per district make up the full codes
    postal_code: (district, random) =>
      `${1011 + district * 2} ${LETTERS[(district + random.int(0, 2)) % LETTERS.length]}${LETTERS[(district * 3) % LETTERS.length]}`,
  },
  {
    code: 'PAR',
    city: 'Paris',
    country_code: 'FR',
    country: 'France',
    state_or_province: null,
    region: 'Île-de-France',
    time_zone: 'Europe/Paris',
    lat: 48.8566,
    lng: 2.3522,
    radius_meters: 6_000,
    grid: 4,
    count: 700,
    number_first: true,
    phone_prefix: '+331',
    streets: [
      'rue de Rivoli',
      'boulevard Saint-Germain',
      'rue de la Roquette',
      'avenue de la République',
      'rue Oberkampf',
      'rue du Faubourg Saint-Antoine',
      'boulevard Voltaire',
      'rue de Vaugirard',
      "rue d'Alésia",
      'avenue de Clichy',
      'rue des Martyrs',
      'rue de Belleville',
      'boulevard Raspail',
      'rue Lecourbe',
    ],
    shop_names: ['Tabac', 'Librairie', 'Épicerie', 'Pressing', 'Relais'],
    // 16 districts, one arrondissement code each
    postal_code: (district) => `750${String(district + 1).padStart(2, '0')}`,
  },
  {
    code: 'LON',
    city: 'London',
    country_code: 'GB',
    country: 'United Kingdom',
    state_or_province: 'England',
    region: 'Greater London',
    time_zone: 'Europe/London',
    lat: 51.5072,
    lng: -0.1276,
    radius_meters: 12_000,
    grid: 6,
    count: 700,
    number_first: true,
    phone_prefix: '+4420',
    streets: [
      'High Street',
      'Kingsland Road',
      'Brixton Road',
      'Holloway Road',
      'Camden High Street',
      'Portobello Road',
      'Old Kent Road',
      'Mile End Road',
      'Fulham Road',
      'Edgware Road',
      'Upper Street',
      'Walworth Road',
      'Lavender Hill',
      'Green Lanes',
    ],
    shop_names: ['Newsagent', 'Convenience Store', 'Pharmacy', 'Post & Parcel', 'Off Licence'],
    // outward code by district, then three inward codes per district
    postal_code: (district, random) =>
      `${LONDON_DISTRICTS[district]} ${1 + ((district + random.int(0, 2)) % 9)}${LETTERS[district % LETTERS.length]}${LETTERS[(district * 7) % LETTERS.length]}`,
  },
  {
    code: 'NYC',
    city: 'New York',
    country_code: 'US',
    country: 'United States',
    state_or_province: 'NY',
    region: null,
    time_zone: 'America/New_York',
    lat: 40.7128,
    lng: -74.006,
    radius_meters: 12_000,
    grid: 6,
    count: 700,
    number_first: true,
    phone_prefix: '+1212',
    streets: [
      'Broadway',
      'Amsterdam Avenue',
      'Lexington Avenue',
      'Atlantic Avenue',
      'Flatbush Avenue',
      'Canal Street',
      'Delancey Street',
      'Bedford Avenue',
      'Court Street',
      'Steinway Street',
      'Grand Street',
      'Fulton Street',
      'Myrtle Avenue',
      'Second Avenue',
    ],
    shop_names: ['Deli', 'Pharmacy', 'Bodega', 'Hardware', 'Shipping Center'],
    postal_code: (district) => String(10001 + district * 31),
  },
  {
    code: 'SIN',
    city: 'Singapore',
    country_code: 'SG',
    country: 'Singapore',
    state_or_province: null,
    region: null,
    time_zone: 'Asia/Singapore',
    lat: 1.3521,
    lng: 103.8198,
    radius_meters: 14_000,
    grid: 6,
    count: 450,
    number_first: true,
    phone_prefix: '+65',
    streets: [
      'Orchard Road',
      'Serangoon Road',
      'Geylang Road',
      'Jurong West Street 41',
      'Tampines Avenue 5',
      'Ang Mo Kio Avenue 3',
      'Bukit Timah Road',
      'Toa Payoh Lorong 1',
      'Bedok North Avenue 1',
      'Clementi Avenue 3',
      'Yishun Ring Road',
      'Woodlands Drive 14',
    ],
    shop_names: ['Minimart', 'Provision Shop', 'Convenience Store', 'Pharmacy', 'Stationery'],
    postal_code: (district) => `${String(10 + district * 2).padStart(2, '0')}${String(1000 + district * 157).slice(-4)}`,
  },
];
