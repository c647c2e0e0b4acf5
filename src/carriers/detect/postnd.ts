import { type FormatFamily, reading } from './format.js';

/**
 * PostNord's own identifiers, as its Track and Trace documentation writes them: 11 digits and `SE`
 * (`96932007555SE`, `84971563697SE`), for which no check digit is published. PostNord's item IDs are otherwise
 * SSCCs (read in sscc.ts as no carrier's own: PostNord's GS1 company prefix is not published) and S10 numbers
 * (`..SE`, `..DK`, read in s10.ts).
 */
export const postnordFormats: FormatFamily = (number) =>
  /^\d{11}SE$/.test(number) ? [reading('postnd', 'postnord_11se', null, { distinctive: true })] : [];
