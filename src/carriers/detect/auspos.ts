import { type FormatFamily, type FormatMatch, reading } from './format.js';

/** eParcel's eye-readable article id: location id, consignment, article (01–20), service, last-article flag, check. */
const EPARCEL_ARTICLE = /^([A-Z0-9]{3})\d{7}(?:0[1-9]|1\d|20)\d{2}[12]\d$/;
/** eParcel's consignment id: the location id and seven digits. */
const EPARCEL_CONSIGNMENT = /^([A-Z0-9]{3})\d{7}$/;

/** A Merchant Location ID as Australia Post issues them: three letters or digits, at least one a letter. */
function isLocationId(id: string): boolean {
  // `JJD` + digits is DHL's piece number (dhl.ts).
  return /[A-Z]/.test(id) && id !== 'JJD';
}

/**
 * Australia Post's own domestic ids (eParcel):
 * - the article id of 16 characters: a Merchant Location ID (3 letters or digits, issued by Australia Post), the
 *   consignment's 7 digits, the article's place in it (01–20), a 2-digit service code, 1 or 2 (more articles
 *   follow, or the last), and a check digit whose method Australia Post does not publish: not checked. The shape
 *   is Australia Post's alone: medium.
 * - the consignment id of 10 characters (the location id and the 7 digits): "Track items" takes it too, but ten
 *   characters name no carrier and carry no check digit: low.
 * Its UPU S10 numbers (`..AU`) are read in s10.ts.
 */
export const auspostFormats: FormatFamily = (number) => {
  const found: FormatMatch[] = [];
  const article = EPARCEL_ARTICLE.exec(number);
  if (article && isLocationId(article[1])) found.push(reading('auspos', 'auspost_eparcel_16', null, { distinctive: true }));
  const consignment = EPARCEL_CONSIGNMENT.exec(number);
  if (consignment && isLocationId(consignment[1])) {
    found.push(reading('auspos', 'auspost_consignment_10', null, { distinctive: false }));
  }
  return found;
};
