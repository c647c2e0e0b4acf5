import type { CarrierEventLocation } from '../carrier.js';
import { countryAlpha2, placeOf } from '../sdk/places.js';
import { timezoneOf } from '../sdk/times.js';

/**
 * Australia Post's event locations are one line of text: `SUBURB STATE` in Australia (`ALEXANDRIA NSW`, also
 * `Sydney,NSW`), `PLACE (CC)` abroad (`SYDNEY (AU)`, `JOHN F. KENNEDY APT/NEW YORK (US)`). Pure; any text reads.
 */

/** Each state's and territory's timezone (New South Wales' Broken Hill and Lord Howe Island aside). */
export const STATE_ZONES: Readonly<Record<string, string>> = {
  ACT: 'Australia/Sydney',
  NSW: 'Australia/Sydney',
  NT: 'Australia/Darwin',
  QLD: 'Australia/Brisbane',
  SA: 'Australia/Adelaide',
  TAS: 'Australia/Hobart',
  VIC: 'Australia/Melbourne',
  WA: 'Australia/Perth',
};

const IN_A_STATE = /^(.+?)[\s,]+(ACT|NSW|NT|QLD|SA|TAS|VIC|WA)(?:\s+(\d{4}))?$/i;
const WITH_A_COUNTRY = /^(.+?)\s*\(([A-Za-z]{2,3})\)$/;

/** A location and the timezone it places a time in (the state's, or the country's when it has one zone). */
export interface AusPostPlace {
  location: CarrierEventLocation | null;
  timezone: string | null;
}

export function placeOfLocation(text: string | null): AusPostPlace {
  if (text === null) return { location: null, timezone: null };
  const inState = IN_A_STATE.exec(text);
  if (inState) {
    const state = inState[2].toUpperCase();
    const timezone = STATE_ZONES[state];
    const location = placeOf({ city: inState[1], state_or_province: state, postal_code: inState[3], country_code: 'AU', timezone });
    return { location, timezone };
  }
  const withCountry = WITH_A_COUNTRY.exec(text);
  const country = withCountry ? countryAlpha2(withCountry[2]) : null;
  if (withCountry && country) {
    const name = withCountry[1];
    // `AIRPORT/CITY`: the city is the last part; the whole name stays as the facility.
    const city = name.includes('/') ? name.slice(name.lastIndexOf('/') + 1) : name;
    const timezone = timezoneOf(country);
    const location = placeOf({ facility: name.includes('/') ? name : null, city, country_code: country, timezone });
    return { location, timezone };
  }
  return { location: placeOf({ facility: text }), timezone: null };
}
