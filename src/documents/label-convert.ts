import { GifReader } from 'omggif';
import PDFDocument from 'pdfkit';
import { PNG } from 'pngjs';

/** A carrier's label image could not be read (not a GIF, truncated, absurd size). */
export class LabelConversionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelConversionError';
  }
}

/** Larger than any label printer's page (4x8 in at 600 dpi is 2400 x 4800). */
const MAX_SIDE = 8_000;

/**
 * A GIF label (UPS sends its labels as GIF) as PNG: the first frame, pixel for pixel, transparency kept.
 * Carriers' GIF labels are 1 frame; a label that does not decode is a `LabelConversionError`.
 */
export function gifToPng(gif: Uint8Array): Buffer {
  let reader: GifReader;
  try {
    reader = new GifReader(Buffer.from(gif.buffer, gif.byteOffset, gif.byteLength));
  } catch (error) {
    throw new LabelConversionError(`The label is not a readable GIF: ${(error as Error).message}`);
  }
  const { width, height } = reader;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
    throw new LabelConversionError(`The GIF label is ${width} x ${height} pixels, beyond what a label can be.`);
  const png = new PNG({ width, height });
  try {
    reader.decodeAndBlitFrameRGBA(0, png.data);
  } catch (error) {
    throw new LabelConversionError(`The GIF label does not decode: ${(error as Error).message}`);
  }
  return PNG.sync.write(png);
}

/**
 * A label image (PNG) on one PDF page of the label's size, e.g. 4x6 in. A label drawn landscape on a
 * portrait page (UPS's GIFs are 1400 x 800 for a 6 x 4 in label) is turned a quarter so it fills the page as
 * the carrier's own PDF would.
 */
export function pngToPdf(png: Buffer, page: { widthInches: number; heightInches: number; title: string }): Promise<Buffer> {
  const { width, height } = PNG.sync.read(png);
  const pageW = page.widthInches * 72;
  const pageH = page.heightInches * 72;
  const turn = width > height !== pageW > pageH;
  const doc = new PDFDocument({ size: [pageW, pageH], margin: 0, info: { Title: page.title, Creator: 'Waybill' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  if (turn) {
    // Rotate about the page's top-left corner, then move the image back onto the page.
    doc.rotate(90, { origin: [0, 0] });
    doc.image(png, 0, -pageW, { fit: [pageH, pageW], align: 'center', valign: 'center' });
  } else {
    doc.image(png, 0, 0, { fit: [pageW, pageH], align: 'center', valign: 'center' });
  }
  doc.end();
  return done;
}
