import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { gifToPng, LabelConversionError, pngToPdf } from '../../src/documents/label-convert.js';

/** A two-colour GIF, black on the left `blackColumns` columns, as a thermal label's image would be. */
function gif(width: number, height: number, blackColumns: number): Buffer {
  const buffer = Buffer.alloc(width * height + 4096);
  const writer = new GifWriter(buffer, width, height, { palette: [0xffffff, 0x000000] });
  const pixels: number[] = new Array(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = i % width < blackColumns ? 1 : 0;
  writer.addFrame(0, 0, width, height, pixels);
  return buffer.subarray(0, writer.end());
}

describe('carrier label conversion', () => {
  it('turns a GIF label into a PNG of the same pixels', () => {
    const png = PNG.sync.read(gifToPng(gif(120, 80, 30)));
    expect([png.width, png.height]).toEqual([120, 80]);
    const at = (x: number, y: number) => png.data.subarray((y * 120 + x) * 4, (y * 120 + x) * 4 + 4);
    expect([...at(0, 0)]).toEqual([0, 0, 0, 255]);
    expect([...at(29, 79)]).toEqual([0, 0, 0, 255]);
    expect([...at(30, 0)]).toEqual([255, 255, 255, 255]);
  });

  it('refuses what is not a GIF', () => {
    expect(() => gifToPng(Buffer.from('%PDF-1.4 not a gif'))).toThrow(LabelConversionError);
    expect(() => gifToPng(gif(10, 10, 5).subarray(0, 20))).toThrow(LabelConversionError);
  });

  it('puts a landscape label image on a 4x6 in portrait PDF page, turned to fill it', async () => {
    const pdf = await pngToPdf(gifToPng(gif(1200, 800, 100)), { widthInches: 4, heightInches: 6, title: 'Label 1Z' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const text = pdf.toString('latin1');
    expect(text).toMatch(/\/MediaBox \[0 0 288 432\]/);
    expect(text).toMatch(/\/Subtype \/Image/);
  });
});
