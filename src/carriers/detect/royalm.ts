import { type FormatFamily, reading } from './format.js';

/**
 * Royal Mail's own ids besides its UPU S10 numbers (`..GB`, read in s10.ts): the 2D barcode's unique item id that
 * the Tracking API takes as `mailPieceId` (`uniqueItemId`), 21 characters of digits and capitals A–F in Royal
 * Mail's documented examples (`090367574000000FE1E1B`). Royal Mail publishes neither its structure nor a check
 * digit, and the shape names no carrier by itself: low. Ids of digits only are left out (they would read as other
 * carriers' numeric formats), and so are ids without a digit.
 */
const UNIQUE_ITEM_ID = /^(?=[0-9A-F]*[A-F])(?=[0-9A-F]*\d)[0-9A-F]{21}$/;

export const royalmFormats: FormatFamily = (number) =>
  UNIQUE_ITEM_ID.test(number) ? [reading('royalm', 'royalm_2d_21', null, { distinctive: false })] : [];
