import { type LabelInput, validateLabelInput } from './label.types.js';
import { type Code128Symbol, encodeCode128, encodeDataMatrix, labelMatrixPayload, type MatrixSymbol } from './label-barcodes.js';
import { addressLines, fitText, formatWeight } from './label-text.js';

/** Labels are laid out in printer dots at 203 dpi, the resolution of common thermal label printers. */
export const LABEL_DPI = 203;
/** 4 inches. */
export const LABEL_WIDTH_DOTS = 812;
/** 6 inches. */
export const LABEL_HEIGHT_DOTS = 1218;

const MARGIN = 24;
const CONTENT_WIDTH = LABEL_WIDTH_DOTS - 2 * MARGIN;

/** Text with its top-left corner at (x, y); `size` is the font size in dots; already fitted to its width. */
export interface TextElement {
  kind: 'text';
  x: number;
  y: number;
  size: number;
  bold: boolean;
  text: string;
}

/** A filled black rectangle (rules between sections). */
export interface RuleElement {
  kind: 'rule';
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A Code 128 barcode; the symbol is pre-encoded for drawing back ends, `data` is for printers that encode. */
export interface Code128Element {
  kind: 'code128';
  x: number;
  y: number;
  height: number;
  moduleWidth: number;
  data: string;
  symbol: Code128Symbol;
}

/** A DataMatrix code; `moduleSize` is the side of one module in dots. */
export interface MatrixElement {
  kind: 'datamatrix';
  x: number;
  y: number;
  moduleSize: number;
  data: string;
  symbol: MatrixSymbol;
}

export type LabelElement = TextElement | RuleElement | Code128Element | MatrixElement;

/** The label as positioned elements, shared by every output format so that all of them look alike. */
export interface LabelLayout {
  widthDots: number;
  heightDots: number;
  /** Document title (PDF metadata). */
  title: string;
  date: string | null;
  elements: LabelElement[];
}

/** Positions everything printed on the label; throws LabelInputError for input that cannot be printed. */
export function layoutLabel(input: LabelInput): LabelLayout {
  validateLabelInput(input);
  const elements: LabelElement[] = [];
  const text = (x: number, y: number, size: number, value: string, maxWidth: number, bold = false) => {
    const fitted = fitText(value, size, maxWidth);
    if (fitted) elements.push({ kind: 'text', x, y, size, bold, text: fitted });
  };
  const rule = (y: number, height: number) => {
    elements.push({ kind: 'rule', x: MARGIN, y, width: CONTENT_WIDTH, height });
  };

  // header: carrier, weight, service
  text(MARGIN, 24, 48, input.carrier_name, 540, true);
  text(580, 30, 40, formatWeight(input.weight_grams), LABEL_WIDTH_DOTS - MARGIN - 580, true);
  text(MARGIN, 86, 30, input.service_name, CONTENT_WIDTH);
  rule(130, 4);

  // sender, small
  text(MARGIN, 146, 22, 'FROM', 100, true);
  for (const [index, line] of addressLines(input.sender, 5).entries()) text(MARGIN + 8, 176 + index * 28, 22, line, CONTENT_WIDTH - 8);
  rule(326, 2);

  // recipient, large
  text(MARGIN, 340, 26, 'TO', 100, true);
  for (const [index, line] of addressLines(input.recipient, 6).entries())
    text(MARGIN + 8, 374 + index * 46, 38, line, CONTENT_WIDTH - 8, index === 0);
  if (input.pudo_location_name) text(MARGIN, 662, 30, `PUDO: ${input.pudo_location_name}`, CONTENT_WIDTH, true);
  rule(708, 4);

  // tracking number barcode, centred, quiet zones of 10 modules either side
  const code128 = encodeCode128(input.tracking_number);
  const moduleWidth = Math.max(1, Math.min(4, Math.floor(CONTENT_WIDTH / (code128.modules + 20))));
  const barcodeWidth = code128.modules * moduleWidth;
  elements.push({
    kind: 'code128',
    x: Math.round((LABEL_WIDTH_DOTS - barcodeWidth) / 2),
    y: 732,
    height: 196,
    moduleWidth,
    data: input.tracking_number,
    symbol: code128,
  });
  const trackingSize = 36;
  const trackingWidth = Math.min(CONTENT_WIDTH, input.tracking_number.length * trackingSize * 0.6);
  text(Math.round((LABEL_WIDTH_DOTS - trackingWidth) / 2), 942, trackingSize, input.tracking_number, CONTENT_WIDTH, true);
  rule(996, 2);

  // 2D code with tracking number and shipment id, identifiers beside it
  const payload = labelMatrixPayload(input.tracking_number, input.shipment_id);
  const matrix = encodeDataMatrix(payload);
  const moduleSize = Math.max(2, Math.min(8, Math.floor(184 / matrix.columns)));
  elements.push({ kind: 'datamatrix', x: MARGIN, y: 1014, moduleSize, data: payload, symbol: matrix });
  const detailsX = MARGIN + 208;
  const detailsWidth = LABEL_WIDTH_DOTS - MARGIN - detailsX;
  const details = [
    `Shipment: ${input.shipment_id}`,
    input.shipment_reference ? `Ref: ${input.shipment_reference}` : null,
    `Tracking: ${input.tracking_number}`,
    input.date ? `Date: ${input.date}` : null,
  ].filter((line): line is string => line !== null);
  for (const [index, line] of details.entries()) text(detailsX, 1018 + index * 36, 26, line, detailsWidth);

  return {
    widthDots: LABEL_WIDTH_DOTS,
    heightDots: LABEL_HEIGHT_DOTS,
    title: `${input.carrier_name} label ${input.tracking_number}`,
    date: input.date ?? null,
    elements,
  };
}
