import bwipjs from 'bwip-js';

/** A Code 128 symbol as bars: offsets and widths in modules, quiet zones not included. */
export interface Code128Symbol {
  bars: Array<{ offset: number; width: number }>;
  /** Width of the whole symbol in modules. */
  modules: number;
}

/** A 2D symbol as a matrix of dark (true) and light modules, row-major. */
export interface MatrixSymbol {
  columns: number;
  rows: number;
  dark: boolean[];
}

/** Encodes `text` as Code 128 (bwip-js chooses the subsets). */
export function encodeCode128(text: string): Code128Symbol {
  const [symbol] = bwipjs.raw('code128', text, {}) as Array<{ sbs: number[] }>;
  const bars: Code128Symbol['bars'] = [];
  let offset = 0;
  symbol.sbs.forEach((width, index) => {
    // sbs alternates bar, space, bar, … starting with a bar
    if (index % 2 === 0) bars.push({ offset, width });
    offset += width;
  });
  return { bars, modules: offset };
}

/** Encodes `text` as a square ECC 200 DataMatrix. */
export function encodeDataMatrix(text: string): MatrixSymbol {
  const [symbol] = bwipjs.raw('datamatrix', text, {}) as Array<{ pixs: number[]; pixx: number; pixy: number }>;
  return { columns: symbol.pixx, rows: symbol.pixy, dark: symbol.pixs.map((pixel) => pixel === 1) };
}

/**
 * The text carried by the label's 2D code: tracking number and shipment id as a URL query string
 * (`tn=…&sid=…`), so that any separator inside a value stays unambiguous and the payload stays ASCII.
 */
export function labelMatrixPayload(trackingNumber: string, shipmentId: string): string {
  return new URLSearchParams({ tn: trackingNumber, sid: shipmentId }).toString();
}

/** Reads a payload written by {@link labelMatrixPayload}; null when either value is missing. */
export function parseLabelMatrixPayload(payload: string): { trackingNumber: string; shipmentId: string } | null {
  const params = new URLSearchParams(payload);
  const trackingNumber = params.get('tn');
  const shipmentId = params.get('sid');
  return trackingNumber && shipmentId ? { trackingNumber, shipmentId } : null;
}

/** Horizontal runs of dark modules, row by row: one rectangle per run draws the symbol without seams. */
export function darkRuns(symbol: MatrixSymbol): Array<{ row: number; column: number; length: number }> {
  const runs: Array<{ row: number; column: number; length: number }> = [];
  for (let row = 0; row < symbol.rows; row++) {
    let column = 0;
    while (column < symbol.columns) {
      if (!symbol.dark[row * symbol.columns + column]) {
        column++;
        continue;
      }
      const start = column;
      while (column < symbol.columns && symbol.dark[row * symbol.columns + column]) column++;
      runs.push({ row, column: start, length: column - start });
    }
  }
  return runs;
}
