import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { LabelInputError } from '../../src/documents/label.types.js';
import { encodeCode128, labelMatrixPayload, parseLabelMatrixPayload } from '../../src/documents/label-barcodes.js';
import { type Code128Element, LABEL_HEIGHT_DOTS, LABEL_WIDTH_DOTS, layoutLabel } from '../../src/documents/label-layout.js';
import { renderLabelPdf } from '../../src/documents/label-pdf.js';
import { renderLabel } from '../../src/documents/label-renderer.js';
import { addressLines, fitText, formatWeight, restrictCharacters } from '../../src/documents/label-text.js';
import { renderLabelZplText } from '../../src/documents/label-zpl.js';
import { sampleLabelInput } from './label-fixtures.js';
import { readPdf } from './pdf-text.js';

describe('PDF label', () => {
  it('is a 4x6 inch page whose text holds the tracking number, shipment id and addresses', async () => {
    const label = await renderLabel(sampleLabelInput(), 'pdf');
    expect(label.contentType).toBe('application/pdf');
    expect(Buffer.from(label.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    const { pages } = await readPdf(label.bytes);
    expect(pages).toHaveLength(1);
    expect(pages[0].width).toBeCloseTo(288, 1);
    expect(pages[0].height).toBeCloseTo(432, 1);
    const text = pages[0].text.join('\n');
    expect(text).toContain('SBX1234567890DE');
    expect(text).toContain('Shipment: ORDER-10042');
    expect(text).toContain('Zoë van der Berg');
    expect(text).toContain('1016 GD Amsterdam');
    expect(text).toContain('PUDO: Kiosk Prinsengracht');
    expect(text).toContain('2.35 kg');
  });

  it('draws the barcodes as filled rectangles in the page content', async () => {
    const layout = layoutLabel(sampleLabelInput());
    const pdf = Buffer.from(await renderLabelPdf(layout, { compress: false })).toString('latin1');
    const code128 = layout.elements.find((element): element is Code128Element => element.kind === 'code128')!;
    const rectangles = pdf.match(/\sre\n/g) ?? [];
    expect(rectangles.length).toBeGreaterThan(code128.symbol.bars.length);
  });
});

describe('ZPL label', () => {
  it('is one ^XA…^XZ format with ^BC Code 128 of the tracking number and a DataMatrix of tracking number and shipment id', async () => {
    const label = await renderLabel(sampleLabelInput(), 'zpl');
    const zpl = Buffer.from(label.bytes).toString('utf8');
    expect(zpl.startsWith('^XA')).toBe(true);
    expect(zpl.trimEnd().endsWith('^XZ')).toBe(true);
    expect(zpl).toMatch(/\^BCN,\d+,N,N,N,A\^FH\\\^FDSBX1234567890DE\^FS/);
    const matrix = /\^BXN,\d+,200\^FH\\\^FD([^^]+)\^FS/.exec(zpl);
    expect(parseLabelMatrixPayload(matrix![1])).toEqual({ trackingNumber: 'SBX1234567890DE', shipmentId: 'ORDER-10042' });
    expect(zpl).toContain('^CI28');
  });

  it('escapes characters that ZPL would read as commands', () => {
    const zpl = renderLabelZplText(layoutLabel(sampleLabelInput({ shipment_reference: 'A^B~C\\D' })));
    expect(zpl).toContain('Ref: A\\5EB\\7EC\\5CD');
    expect(zpl).not.toContain('A^B');
  });
});

/** Decodes the 1-bit greyscale PNG written by the renderer into rows of booleans (true = black). */
function decodeMonochromePng(png: Uint8Array): { width: number; height: number; black: (x: number, y: number) => boolean } {
  const bytes = Buffer.from(png);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('ascii', offset + 4, offset + 8);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9]]).toEqual([1, 0]);
    }
    if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const rowBytes = Math.ceil(width / 8) + 1;
  return { width, height, black: (x, y) => (raw[y * rowBytes + 1 + (x >> 3)] & (0x80 >> (x & 7))) === 0 };
}

describe('PNG label', () => {
  it('is a 203 dpi 4x6 inch bitmap whose barcode row reproduces the Code 128 of the tracking number', async () => {
    const input = sampleLabelInput();
    const label = await renderLabel(input, 'png');
    expect(label.contentType).toBe('image/png');
    const image = decodeMonochromePng(label.bytes);
    expect([image.width, image.height]).toEqual([LABEL_WIDTH_DOTS, LABEL_HEIGHT_DOTS]);

    const code128 = layoutLabel(input).elements.find((element): element is Code128Element => element.kind === 'code128')!;
    const y = code128.y + Math.floor(code128.height / 2);
    const runs: number[] = [];
    let x = code128.x;
    while (x < code128.x + code128.symbol.modules * code128.moduleWidth) {
      const colour = image.black(x, y);
      let end = x;
      while (end < image.width && image.black(end, y) === colour) end++;
      runs.push(end - x);
      x = end;
    }
    const expected = encodeCode128(input.tracking_number);
    const modules: number[] = [];
    expected.bars.forEach((bar, index) => {
      if (index > 0) modules.push(bar.offset - (expected.bars[index - 1].offset + expected.bars[index - 1].width));
      modules.push(bar.width);
    });
    expect(runs).toEqual(modules.map((width) => width * code128.moduleWidth));
  });
});

describe('label input and text', () => {
  it('refuses tracking numbers a scanner or printer would misread', async () => {
    await expect(renderLabel(sampleLabelInput({ tracking_number: 'SBX 123' }), 'pdf')).rejects.toBeInstanceOf(LabelInputError);
    await expect(renderLabel(sampleLabelInput({ tracking_number: '>:123' }), 'zpl')).rejects.toThrow(/tracking_number/);
    await expect(renderLabel(sampleLabelInput(), 'gif' as 'pdf')).rejects.toThrow(/format/);
  });

  it('round-trips the 2D payload, even with separators inside values', () => {
    const payload = labelMatrixPayload('SBX1', 'A&sid=B|C');
    expect(parseLabelMatrixPayload(payload)).toEqual({ trackingNumber: 'SBX1', shipmentId: 'A&sid=B|C' });
  });

  it('orders address lines as the destination country writes them', () => {
    expect(
      addressLines(
        {
          first_name: 'Ann',
          last_name: 'Lee',
          street_name: 'Broadway',
          house_number: '1250',
          city: 'New York',
          state_or_province: 'NY',
          postal_code: '10001',
          country_code: 'US',
        },
        6,
      ),
    ).toEqual(['Ann Lee', '1250 Broadway', 'New York, NY 10001', 'UNITED STATES']);
    expect(
      addressLines(
        { company: 'Acme', street_name: 'Torstraße', house_number: '5', postal_code: '10119', city: 'Berlin', country_code: 'de' },
        6,
      ),
    ).toEqual(['Acme', 'Torstraße 5', '10119 Berlin', 'GERMANY']);
    const crowded = addressLines(
      {
        first_name: 'Bo',
        company: 'Co',
        line1: 'L1',
        line2: 'L2',
        line3: 'L3',
        postal_code: 'EC1A 1BB',
        city: 'London',
        country_code: 'GB',
        phone: '+44',
      },
      5,
    );
    expect(crowded).toEqual(['Bo', 'L1', 'LONDON', 'EC1A 1BB', 'UNITED KINGDOM']);
  });

  it('fits, restricts and formats text', () => {
    expect(fitText('A very long service name indeed', 10, 60)).toBe('A very ...');
    expect(restrictCharacters('Zoë Straße Łódź 東京', 0x7e)).toBe('Zoe Strasse Lodz ??');
    expect(restrictCharacters('Zoë 東', 0xff)).toBe('Zoë ?');
    expect(formatWeight(850)).toBe('850 g');
    expect(formatWeight(2350)).toBe('2.35 kg');
  });
});
