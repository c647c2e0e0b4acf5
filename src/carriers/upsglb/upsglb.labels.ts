import type { LabelFormat } from '../../documents/label.types.js';
import { gifToPng, LabelConversionError, pngToPdf } from '../../documents/label-convert.js';
import type { BookedLabel } from '../booking.js';
import type { UpsImage, UpsPackageResult } from './upsglb.ship.js';

/**
 * UPS's label images → the formats merchants get. UPS renders labels as GIF, ZPL, EPL or SPL (Shipping.yaml,
 * `LabelImageFormat`); Waybill asks for ZPL when ZPL is wanted and for GIF otherwise, and converts the GIF to
 * PNG, and the PNG to a 4 x 6 in PDF page (`src/documents/label-convert.ts`). Label Recovery may answer PDF,
 * which is kept as it is. Customs forms come as PDF or PNG and are kept as they are.
 */

/** The label page: UPS's labels are 4 x 6 in ("Label Image will only scale up to 4 X 6"). */
const PAGE = { widthInches: 4, heightInches: 6 } as const;

async function labelFile(image: UpsImage, wanted: LabelFormat, title: string): Promise<{ bytes: Uint8Array; format: LabelFormat }> {
  switch (image.code) {
    case 'ZPL':
      return { bytes: image.bytes, format: 'zpl' };
    case 'PDF':
      return { bytes: image.bytes, format: 'pdf' };
    case 'GIF':
    case 'PNG': {
      const png = image.code === 'GIF' ? gifToPng(image.bytes) : image.bytes;
      if (wanted === 'png') return { bytes: png, format: 'png' };
      return { bytes: await pngToPdf(Buffer.from(png), { ...PAGE, title }), format: 'pdf' };
    }
    default:
      throw new LabelConversionError(`UPS sent a ${image.code} label, which Waybill does not convert.`);
  }
}

/**
 * One label per package, in UPS's package order (the order of the request's parcels), then the customs
 * forms. Throws `LabelConversionError` when a package has no label or its image does not convert.
 */
export async function bookedLabels(
  packages: readonly UpsPackageResult[],
  forms: readonly UpsImage[],
  wanted: LabelFormat,
): Promise<BookedLabel[]> {
  const labels: BookedLabel[] = [];
  for (const [index, pkg] of packages.entries()) {
    if (!pkg.label) throw new LabelConversionError(`UPS sent no label for package ${pkg.trackingNumber}.`);
    const file = await labelFile(pkg.label, wanted, `UPS ${pkg.trackingNumber}`);
    labels.push({ kind: 'file', ...file, document_type: 'label', parcel_index: index, tracking_number: pkg.trackingNumber });
  }
  for (const form of forms) {
    const format: LabelFormat | null = form.code === 'PDF' ? 'pdf' : form.code === 'PNG' ? 'png' : null;
    if (format) labels.push({ kind: 'file', bytes: form.bytes, format, document_type: 'customs_declaration' });
  }
  return labels;
}
