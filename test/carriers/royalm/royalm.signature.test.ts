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

describe('Royal Mail signatures', () => {
  it('a base64 PNG is kept as it is', () => {
    const image = mapSignatureBody(royalmFixture('signature-png'));
    expect(image).toMatchObject({ status: 'ok', content_type: 'image/png' });
    expect(image.status === 'ok' && inked(image.content)).toEqual({ width: 2, height: 1, black: 1 });
  });

  it('an SVG pen trace (polyline and path) is drawn as a PNG of its size', () => {
    const image = mapSignatureBody(royalmFixture('signature-svg'));
    expect(image).toMatchObject({ status: 'ok', content_type: 'image/png' });
    if (image.status !== 'ok') return;
    const { width, height, black } = inked(image.content);
    expect([width, height]).toEqual([300, 120]);
    expect(black).toBeGreaterThan(500);
    expect(black).toBeLessThan((width * height) / 2);
  });

  it('no image, an image that is neither SVG nor PNG, an SVG without strokes: no proof, not retried', () => {
    expect(mapSignatureBody({ mailPieces: { signature: {} } })).toMatchObject({ status: 'error', retryable: false });
    expect(mapSignatureBody({ mailPieces: { signature: { imageFormat: 'image/png', image: 'R0lGODlhAQABAAAAACw=' } } })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(mapSignatureBody({ mailPieces: { signature: { imageFormat: 'image/png', image: 'not base64!' } } })).toMatchObject({
      status: 'error',
      retryable: false,
    });
    expect(
      mapSignatureBody({ mailPieces: { signature: { imageFormat: 'image/svg+xml', image: '<svg><script>alert(1)</script></svg>' } } }),
    ).toMatchObject({ status: 'error', retryable: false });
  });

  it('a 404 or Royal Mail’s E1144/E1145 is a lasting absence; other answers are left to the adapter', () => {
    expect(signatureAbsence(404, royalmFixture('signature-missing'))).toMatchObject({ status: 'error', retryable: false });
    expect(signatureAbsence(400, { errors: [{ errorCode: 'E1144' }] })).toMatchObject({ retryable: false });
    expect(signatureAbsence(400, royalmFixture('bad-request'))).toBeNull();
  });

  it('the SVG reader is bounded: huge coordinates, huge sizes and junk end without drawing forever', () => {
    expect(svgSignatureToPng('<svg width="100" height="100"><polyline points="0,0 1e300,1e300"/></svg>')).toBeNull();
    const large = svgSignatureToPng('<svg width="90000" height="30000"><line x1="0" y1="0" x2="90000" y2="30000" stroke-width="4"/></svg>');
    expect(large && inked(large).width).toBe(1200);
    expect(svgSignatureToPng('<svg viewBox="0 0 10 10"><path d="M 1 1 Q 3 3 5 5 T 9 9 A 1 1 0 0 1 2 8 z"/></svg>')).not.toBeNull();
    expect(svgSignatureToPng('<svg><polyline points=""/><line x1="a"/></svg>')).toBeNull();
    expect(svgSignatureToPng('no svg at all')).toBeNull();
  });
});
