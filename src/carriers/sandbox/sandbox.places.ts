import type { SandboxScanLocation } from './sandbox.payload.js';

/** The sandbox network: real cities and plausible facilities, with coordinates and timezones. */

type Place = SandboxScanLocation;

function place(
  facility: string | null,
  type: Place['type'],
  street: string | null,
  postcode: string,
  city: string,
  state: string | null,
  country: [string, string],
  lat: number,
  lon: number,
  tz: string,
): Place {
  return { facility, type, street, postcode, city, state, country: country[0], countryCode: country[1], lat, lon, tz };
}

const DE: [string, string] = ['Germany', 'DE'];
const NL: [string, string] = ['Netherlands', 'NL'];
const FR: [string, string] = ['France', 'FR'];
const GB: [string, string] = ['United Kingdom', 'GB'];
const US: [string, string] = ['United States', 'US'];
const SG: [string, string] = ['Singapore', 'SG'];

const BERLIN = 'Europe/Berlin';
const AMSTERDAM = 'Europe/Amsterdam';
const PARIS = 'Europe/Paris';
const LONDON = 'Europe/London';

const hubs = {
  leipzig: place('Hub Leipzig/Halle', 'hub', 'Flughafenstraße 1', '04435', 'Schkeuditz', null, DE, 51.4239, 12.2364, BERLIN),
  schiphol: place('Sorteercentrum Schiphol', 'hub', 'Cessnalaan 1', '1119 NL', 'Schiphol-Rijk', null, NL, 52.2893, 4.7511, AMSTERDAM),
  roissy: place('Hub Paris-Nord', 'hub', '2 Rue de la Haye', '95700', 'Roissy-en-France', null, FR, 49.0034, 2.5167, PARIS),
  eastMidlands: place('East Midlands Gateway', 'hub', 'Beverley Road', 'DE74 2TR', 'Castle Donington', null, GB, 52.8311, -1.3281, LONDON),
  memphis: place('Memphis Hub', 'hub', '2903 Sprankel Ave', '38118', 'Memphis', 'TN', US, 35.0424, -89.9767, 'America/Chicago'),
  changi: place(
    'Changi Airfreight Centre',
    'hub',
    '115 Airport Cargo Road',
    '819466',
    'Singapore',
    null,
    SG,
    1.3621,
    103.9897,
    'Asia/Singapore',
  ),
};

const depots = {
  berlin: place('Depot Berlin-Marienfelde', 'depot', 'Motzener Straße 10', '12277', 'Berlin', null, DE, 52.409, 13.365, BERLIN),
  hamburg: place('Depot Hamburg-Billbrook', 'depot', 'Billstraße 28', '20539', 'Hamburg', null, DE, 53.5423, 10.0714, BERLIN),
  cologne: place('Depot Köln-Eifeltor', 'depot', 'Eifeltorstraße 15', '50997', 'Köln', null, DE, 50.8941, 6.9268, BERLIN),
  nieuwegein: place('Depot Utrecht', 'depot', 'Ravenswade 54', '3439 LD', 'Nieuwegein', null, NL, 52.0334, 5.0902, AMSTERDAM),
  rotterdam: place(
    'Depot Rotterdam-Waalhaven',
    'depot',
    'Waalhaven Zuidzijde 21',
    '3089 JH',
    'Rotterdam',
    null,
    NL,
    51.8911,
    4.4217,
    AMSTERDAM,
  ),
  paris: place('Agence Paris 15', 'depot', '40 Rue Balard', '75015', 'Paris', null, FR, 48.8374, 2.2785, PARIS),
  lyon: place('Agence Lyon-Gerland', 'depot', '12 Rue de Gerland', '69007', 'Lyon', null, FR, 45.7318, 4.8309, PARIS),
  london: place('London Beckton Depot', 'depot', '1 Armada Way', 'E6 7FB', 'London', null, GB, 51.5096, 0.0683, LONDON),
  manchester: place('Trafford Park Depot', 'depot', 'Westinghouse Road', 'M17 1PY', 'Manchester', null, GB, 53.4657, -2.3194, LONDON),
  newYork: place('Maspeth Station', 'depot', '56-02 48th Street', '11378', 'New York', 'NY', US, 40.7287, -73.9211, 'America/New_York'),
  chicago: place(
    'Chicago South Station',
    'depot',
    '4800 S Kolmar Avenue',
    '60632',
    'Chicago',
    'IL',
    US,
    41.8052,
    -87.7331,
    'America/Chicago',
  ),
  singapore: place(
    'Tampines Depot',
    'depot',
    '21 Tampines Industrial Avenue 5',
    '528623',
    'Singapore',
    null,
    SG,
    1.3794,
    103.9293,
    'Asia/Singapore',
  ),
};

/** A recipient's address as carriers show it in tracking: the city only, never the street. */
function recipientIn(depot: Place, lat: number, lon: number): Place {
  return { ...depot, facility: null, type: 'address', street: null, lat, lon };
}

function servicePointIn(depot: Place, facility: string, street: string, postcode: string, lat: number, lon: number): Place {
  return { ...depot, facility, type: 'service_point', street, postcode, lat: round4(lat), lon: round4(lon) };
}

/** A journey through the network: pick-up depot, one or two hubs, delivery depot. */
export interface Route {
  origin: Place;
  /** First hub after pick-up; with a second hub the shipment crosses a border and clears customs there. */
  hubs: [Place] | [Place, Place];
  destination: Place;
  recipient: Place;
  servicePoint: Place;
}

function route(
  origin: Place,
  routeHubs: Route['hubs'],
  destination: Place,
  recipient: [number, number],
  shop: [string, string, string],
): Route {
  return {
    origin,
    hubs: routeHubs,
    destination,
    recipient: recipientIn(destination, recipient[0], recipient[1]),
    servicePoint: servicePointIn(destination, shop[0], shop[1], shop[2], recipient[0] + 0.004, recipient[1] - 0.006),
  };
}

/** The journeys scenarios choose from by tracking-number hash. */
export const ROUTES: readonly Route[] = [
  route(depots.berlin, [hubs.leipzig], depots.hamburg, [53.5511, 9.9937], ['Kiosk am Großneumarkt', 'Großneumarkt 12', '20459']),
  route(depots.hamburg, [hubs.leipzig], depots.cologne, [50.9375, 6.9603], ['Paketshop Ehrenfeld', 'Venloer Straße 301', '50823']),
  route(depots.nieuwegein, [hubs.schiphol], depots.rotterdam, [51.9244, 4.4777], ['Primera Centrum', 'Lijnbaan 88', '3012 ER']),
  route(depots.paris, [hubs.roissy], depots.lyon, [45.764, 4.8357], ['Relais Tabac Presse', '35 Rue de la République', '69002']),
  route(
    depots.london,
    [hubs.eastMidlands, hubs.leipzig],
    depots.hamburg,
    [53.5511, 9.9937],
    ['Kiosk am Großneumarkt', 'Großneumarkt 12', '20459'],
  ),
  route(
    depots.newYork,
    [hubs.memphis, hubs.eastMidlands],
    depots.manchester,
    [53.4808, -2.2426],
    ['Northern Quarter Post Office', '26 Spear Street', 'M1 1JN'],
  ),
  route(
    depots.singapore,
    [hubs.changi, hubs.leipzig],
    depots.cologne,
    [50.9375, 6.9603],
    ['Paketshop Ehrenfeld', 'Venloer Straße 301', '50823'],
  ),
  route(depots.newYork, [hubs.memphis], depots.chicago, [41.8781, -87.6298], ['Loop Pack & Ship', '180 N LaSalle Street', '60601']),
];

function round4(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}
