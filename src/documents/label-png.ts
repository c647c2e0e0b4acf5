import bwipjs from 'bwip-js';
import { darkRuns } from './label-barcodes.js';
import { LABEL_DPI, type LabelLayout } from './label-layout.js';
import { restrictCharacters } from './label-text.js';
import { encodeMonochromePng } from './png-encode.js';

/** bwip-js ships OCR-B for the human-readable line under barcodes; it covers printable ASCII. */
const FONT = 'OCR-B';
/** Baseline below the top of a line, as a share of the font size. */
const ASCENT = 0.8;

/** A one-byte-per-pixel black-and-white canvas with clipping. */
class MonochromeCanvas {
  readonly pixels: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.pixels = new Uint8Array(width * height);
  }

  fillRect(x: number, y: number, width: number, height: number): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + width));
    const y1 = Math.min(this.height, Math.round(y + height));
    for (let row = y0; row < y1; row++) this.pixels.fill(1, row * this.width + x0, row * this.width + x1);
  }

  /** Draws `text` with its baseline at `baseline`; glyph coverage of at least a half counts as black. */
  drawText(text: string, x: number, baseline: number, size: number): void {
    const fontId = bwipjs.FontLib.lookup(FONT);
    let penX = x;
    for (const char of text) {
      const glyph = bwipjs.FontLib.getglyph(fontId, char.charCodeAt(0), size, size);
      const left = penX + glyph.left;
      const top = baseline - glyph.top;
      for (let gy = 0; gy < glyph.height; gy++) {
        const y = top + gy;
        if (y < 0 || y >= this.height) continue;
        for (let gx = 0; gx < glyph.width; gx++) {
          const px = left + gx;
          if (px >= 0 && px < this.width && glyph.pixels[glyph.offset + gy * glyph.width + gx] >= 128) this.pixels[y * this.width + px] = 1;
        }
      }
      penX += glyph.advance;
    }
  }
}

/**
 * Rasterises the layout at the printer's own resolution (203 dpi, 812 x 1218 pixels) into a 1-bit PNG.
 * Barcodes are drawn from the same symbols as the PDF, on whole dots, so they scan as printed; text uses
 * the OCR-B glyphs bundled with bwip-js (non-ASCII letters are printed without their accents).
 */
export function renderLabelPng(layout: LabelLayout): Uint8Array {
  const canvas = new MonochromeCanvas(layout.widthDots, layout.heightDots);
  for (const element of layout.elements) {
    switch (element.kind) {
      case 'text': {
        const text = restrictCharacters(element.text, 0x7e);
        const baseline = element.y + Math.round(element.size * ASCENT);
        canvas.drawText(text, element.x, baseline, element.size);
        if (element.bold) canvas.drawText(text, element.x + Math.max(1, Math.round(element.size / 24)), baseline, element.size);
        break;
      }
      case 'rule':
        canvas.fillRect(element.x, element.y, element.width, element.height);
        break;
      case 'code128':
        for (const bar of element.symbol.bars) {
          canvas.fillRect(element.x + bar.offset * element.moduleWidth, element.y, bar.width * element.moduleWidth, element.height);
        }
        break;
      case 'datamatrix': {
        const unit = element.moduleSize;
        for (const run of darkRuns(element.symbol))
          canvas.fillRect(element.x + run.column * unit, element.y + run.row * unit, run.length * unit, unit);
        break;
      }
    }
  }
  return encodeMonochromePng(canvas.width, canvas.height, canvas.pixels, LABEL_DPI);
}
