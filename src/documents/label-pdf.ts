import PDFDocument from 'pdfkit';
import { darkRuns } from './label-barcodes.js';
import type { LabelLayout } from './label-layout.js';
import { restrictCharacters } from './label-text.js';

/** PDF points per printer dot: the page is exactly 4x6 inches (288 x 432 pt). */
const SCALE = 72 / 203;

export interface PdfOptions {
  /** Deflate content streams (default true); tests turn it off to read the page content directly. */
  compress?: boolean;
}

/**
 * Draws the layout on a 4x6 inch PDF page: text in the built-in Helvetica (Latin-1), barcodes as vector
 * rectangles so they stay sharp at any printer resolution.
 */
export function renderLabelPdf(layout: LabelLayout, options: PdfOptions = {}): Promise<Uint8Array> {
  const doc = new PDFDocument({
    size: [layout.widthDots * SCALE, layout.heightDots * SCALE],
    margin: 0,
    compress: options.compress ?? true,
    info: {
      Title: layout.title,
      Creator: 'Waybill',
      ...(layout.date ? { CreationDate: new Date(`${layout.date}T00:00:00Z`) } : {}),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  for (const element of layout.elements) {
    switch (element.kind) {
      case 'text':
        doc
          .font(element.bold ? 'Helvetica-Bold' : 'Helvetica')
          .fontSize(element.size * SCALE)
          .text(restrictCharacters(element.text, 0xff), element.x * SCALE, element.y * SCALE, { lineBreak: false });
        break;
      case 'rule':
        doc.rect(element.x * SCALE, element.y * SCALE, element.width * SCALE, element.height * SCALE).fill('black');
        break;
      case 'code128': {
        const unit = element.moduleWidth * SCALE;
        for (const bar of element.symbol.bars) {
          doc.rect(element.x * SCALE + bar.offset * unit, element.y * SCALE, bar.width * unit, element.height * SCALE);
        }
        doc.fill('black');
        break;
      }
      case 'datamatrix': {
        const unit = element.moduleSize * SCALE;
        for (const run of darkRuns(element.symbol)) {
          doc.rect(element.x * SCALE + run.column * unit, element.y * SCALE + run.row * unit, run.length * unit, unit);
        }
        doc.fill('black');
        break;
      }
    }
  }
  doc.end();
  return done;
}
