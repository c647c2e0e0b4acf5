import { type FormatFamily, reading } from './format.js';

/**
 * InPost's shipment numbers in Poland (ShipX): 24 digits, as the documentation's parcel locker example is. InPost
 * publishes no check digit for them, and a length alone does not name the carrier, so the reading is low. InPost
 * issues no UPU S10 numbers.
 */
export const inpostFormats: FormatFamily = (number) =>
  /^\d{24}$/.test(number) ? [reading('inpost', 'inpost_24', null, { distinctive: false })] : [];
