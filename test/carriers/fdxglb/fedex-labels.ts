import PDFDocument from 'pdfkit';
import { PNG } from 'pngjs';

/**
 * Labels and documents as the local FedEx sends them, made here (nothing recorded from FedEx): a 4 x 6 in PDF
 * naming the tracking number, a PNG whose stripes come from the tracking number, ZPL text, and a PDF
 * commercial invoice listing the goods.
 */

function pdf(build: (doc: PDFKit.PDFDocument) => void, size: [number, number] | 'LETTER', title: string): Promise<Buffer> {
  const doc = new PDFDocument({ size, margin: 18, info: { Title: title } });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  build(doc);
  doc.end();
  return done;
}

export function pdfLabel(trackingNumber: string): Promise<Buffer> {
  return pdf((doc) => doc.fontSize(14).text('FEDEX LABEL').text(`TRK# ${trackingNumber}`), [288, 432], `FedEx label ${trackingNumber}`);
}

export function pngLabel(trackingNumber: string): Buffer {
  const png = new PNG({ width: 120, height: 180 });
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const digit = Number(trackingNumber[Math.floor(x / 10) % trackingNumber.length] ?? 0);
      const black = y > 60 && y < 120 && x % 10 < 1 + (digit % 9);
      const i = (y * png.width + x) * 4;
      png.data[i] = png.data[i + 1] = png.data[i + 2] = black ? 0 : 255;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

export function zplLabel(trackingNumber: string): string {
  return `^XA^CI28^FO30,30^A0N,36,36^FDFEDEX^FS^FO30,100^BCN,180,Y,N,N^FD${trackingNumber}^FS^FO30,320^A0N,28,28^FDTRK# ${trackingNumber}^FS^XZ`;
}

export function invoicePdf(trackingNumber: string, goods: string[]): Promise<Buffer> {
  return pdf(
    (doc) => {
      doc.fontSize(18).text('COMMERCIAL INVOICE');
      doc.fontSize(11).text(`AWB: ${trackingNumber}`);
      for (const line of goods) doc.text(line);
    },
    'LETTER',
    `Commercial invoice ${trackingNumber}`,
  );
}
