import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { mapSignatureBody, signatureAbsence } from '../../../src/carriers/royalm/royalm.signature.js';
import { svgSignatureToPng } from '../../../src/carriers/royalm/royalm.svg.js';
import { royalmFixture } from './fixtures.js';

function inked(png: Buffer): { width: number; height: number; black: number } {
  const image = PNG.sync.read(png);
  let black = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === 0) black++;
  return { width: image.width, height: image.height, black };
}

/** Whether the pixel at (x, y) is dark (a stroke is drawn there) rather than the white background. */
function darkAt(image: PNG, x: number, y: number): boolean {
  const at = (y * image.width + x) * 4;
  return image.data[at] < 128 && image.data[at + 1] < 128 && image.data[at + 2] < 128;
}

describe('Royal Mail signatures', () => {
  it('a base64 PNG is kept as it is', async () => {
    const image = await mapSignatureBody(royalmFixture('signature-png'));
    expect(image).toMatchObject({ status: 'ok', content_type: 'image/png' });
    expect(image.status === 'ok' && inked(image.content)).toEqual({ width: 2, height: 1, black: 1 });
  });

  it('an SVG pen trace (polyline and path) is drawn as a PNG of its size, its strokes dark on white', async () => {
    const image = await mapSignatureBody(royalmFixture('signature-svg'));
    expect(image).toMatchObject({ status: 'ok', content_type: 'image/png' });
    if (image.status !== 'ok') return;
    expect([...image.content.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const png = PNG.sync.read(image.content);
    const { width, height } = png;
    expect([width, height]).toEqual([300, 120]);
    let dark = 0;
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) if (darkAt(png, x, y)) dark++;
    expect(dark).toBeGreaterThan(500);
    expect(dark).toBeLessThan((width * height) / 2);
    // On the polyline (20,90 → 40,30 → 60,90 → 80,30 → 100,90), on the path's first two lines (140,30 → 140,90 →
    // 170,90), and off every stroke.
    for (const [x, y] of [
      [30, 60],
      [50, 60],
      [90, 60],
      [140, 60],
      [155, 90],
    ])
      expect(darkAt(png, x, y), `(${x}, ${y})`).toBe(true);
    for (const [x, y] of [
      [5, 5],
      [120, 60],
      [295, 115],
    ])
      expect(darkAt(png, x, y), `(${x}, ${y})`).toBe(false);
  });

  it('no image, an image that is neither SVG nor PNG, an SVG without strokes: no proof, not retried', async () => {
    expect(await mapSignatureBody({ mailPieces: { signature: {} } })).toMatchObject({ status: 'error', retryable: false });
    expect(
      await mapSignatureBody({ mailPieces: { signature: { imageFormat: 'image/png', image: 'R0lGODlhAQABAAAAACw=' } } }),
    ).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(await mapSignatureBody({ mailPieces: { signature: { imageFormat: 'image/png', image: 'not base64!' } } })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(
      await mapSignatureBody({
        mailPieces: { signature: { imageFormat: 'image/svg+xml', image: '<svg><script>alert(1)</script></svg>' } },
      }),
    ).toMatchObject({ status: 'error', retryable: false });
  });

  it('a 404 or Royal Mail’s E1144/E1145 is a lasting absence; other answers are left to the adapter', () => {
    expect(signatureAbsence(404, royalmFixture('signature-missing'))).toMatchObject({ status: 'error', retryable: false });
    expect(signatureAbsence(400, { errors: [{ errorCode: 'E1144' }] })).toMatchObject({ retryable: false });
    expect(signatureAbsence(400, royalmFixture('bad-request'))).toBeNull();
  });

  it('the SVG reader is bounded: huge coordinates, huge sizes, oversized text and junk end without drawing forever', async () => {
    expect(await svgSignatureToPng('<svg width="100" height="100"><polyline points="0,0 1e300,1e300" stroke="#000"/></svg>')).toBeNull();
    const large = await svgSignatureToPng(
      '<svg width="90000" height="30000"><line x1="0" y1="0" x2="90000" y2="30000" stroke="#000" stroke-width="400"/></svg>',
    );
    const scaled = large && PNG.sync.read(large);
    expect(scaled).toMatchObject({ width: 1200, height: 400 });
    expect(scaled && darkAt(scaled, 600, 200)).toBe(true);
    const curves = await svgSignatureToPng(
      '<svg viewBox="0 0 10 10"><path d="M 1 1 Q 3 3 5 5 T 9 9 A 1 1 0 0 1 2 8 z" stroke="#000"/></svg>',
    );
    expect(curves && PNG.sync.read(curves)).toMatchObject({ width: 10, height: 10 });
    expect(await svgSignatureToPng('<svg><polyline points=""/><line x1="a"/></svg>')).toBeNull();
    expect(
      await svgSignatureToPng(`<svg width="10" height="10"><path d="M0 0L10 10${' L10 10'.repeat(200_000)}" stroke="#000"/></svg>`),
    ).toBeNull();
    expect(await svgSignatureToPng('<svg width="10" height="10"><path d="M0 0L10 10" stroke="#000"/>')).toBeNull();
    expect(await svgSignatureToPng('no svg at all')).toBeNull();
  });
});
