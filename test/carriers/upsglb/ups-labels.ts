import { createHash } from 'node:crypto';
import { GifReader, GifWriter } from 'omggif';
import PDFDocument from 'pdfkit';

/**
 * Label images as the local UPS sends them, made here (nothing recorded from UPS): a GIF drawn like UPS's
 * (1400 x 800, landscape, two colours), ZPL text, and a PDF commercial invoice. Each label's stripes are
 * derived from its tracking number, so two labels never look alike and a converted label can be traced back.
 */

export const GIF_WIDTH = 1400;
export const GIF_HEIGHT = 800;

/** The drawing of the GIF label of `trackingNumber`: the colour (0 white, 1 black) of each pixel. */
export function labelPattern(trackingNumber: string): (x: number, y: number) => 0 | 1 {
  const seed = createHash('sha256').update(trackingNumber).digest();
  return (x, y) => {
    if (x < 8 || y < 8 || x >= GIF_WIDTH - 8 || y >= GIF_HEIGHT - 8) return 1;
    // Twenty barcode-like columns in the middle band, their widths from the tracking number.
    if (y <= 300 || y >= 500) return 0;
    const byte = seed[Math.floor((x - 8) / 69) % seed.length];
    return (x - 8) % 69 < 10 + (byte % 50) ? 1 : 0;
  };
}

/** A GIF89a label for a tracking number, written with omggif's GifWriter. */
export function gifLabel(trackingNumber: string): Buffer {
  const pixel = labelPattern(trackingNumber);
  const pixels = new Array<number>(GIF_WIDTH * GIF_HEIGHT);
  for (let y = 0; y < GIF_HEIGHT; y++) for (let x = 0; x < GIF_WIDTH; x++) pixels[y * GIF_WIDTH + x] = pixel(x, y);
  const buffer = Buffer.alloc(GIF_WIDTH * GIF_HEIGHT + 4096);
  const writer = new GifWriter(buffer, GIF_WIDTH, GIF_HEIGHT, { palette: [0xffffff, 0x000000] });
  writer.addFrame(0, 0, GIF_WIDTH, GIF_HEIGHT, pixels);
  return buffer.subarray(0, writer.end());
}

/** The RGBA pixels of a GIF (to compare a converted label with what the local UPS sent). */
export function gifPixels(gif: Buffer): { width: number; height: number; rgba: Uint8Array } {
  const reader = new GifReader(gif);
  const rgba = new Uint8Array(reader.width * reader.height * 4);
  reader.decodeAndBlitFrameRGBA(0, rgba);
  return { width: reader.width, height: reader.height, rgba };
}

/** A ZPL label for a tracking number. */
export function zplLabel(trackingNumber: string): string {
  return `^XA^CI28^FO40,40^A0N,40,40^FDUPS STANDARD^FS^FO40,120^BCN,200,Y,N,N^FD${trackingNumber}^FS^FO40,400^A0N,30,30^FDTRACKING #: ${trackingNumber}^FS^XZ`;
}

/** A one-page PDF invoice naming the shipment (UPS sends the international forms as PDF). */
export function invoicePdf(shipmentId: string, products: string[]): Promise<Buffer> {
  const doc = new PDFDocument({ size: 'A4', margin: 50, info: { Title: `Commercial invoice ${shipmentId}` } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.fontSize(18).text('COMMERCIAL INVOICE');
  doc.fontSize(11).text(`Waybill/Tracking: ${shipmentId}`);
  for (const product of products) doc.text(product);
  doc.end();
  return done;
}
