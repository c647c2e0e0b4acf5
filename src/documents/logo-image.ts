import { imageSize } from 'image-size';
import { GifReader } from 'omggif';
import { PNG } from 'pngjs';

/** The most pixels a logo may have on each side: the portal shows it a few hundred pixels wide. */
export const MAX_LOGO_SIDE = 2048;

/** The image types a logo may have (no SVG: it can carry script), as image-size names them. */
export const LOGO_TYPES: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * Why these bytes are not a logo of `contentType` to show on the portal, or null when they are one: an image of
 * that type whose header gives its size, from 1 to MAX_LOGO_SIDE pixels on each side, and whole. A PNG is decoded
 * (its checksums and lengths read), a GIF's first frame too; a JPEG must end with its end-of-image marker, a WebP
 * be as long as its RIFF header says. The size is checked first, so a decode never makes more than 16 MiB of pixels.
 */
export function logoProblem(bytes: Buffer, contentType: string): string | null {
  let size: { width?: number; height?: number; type?: string };
  try {
    // A copy in memory of its own: image-size reads through a view of the whole underlying memory, and a small
    // decoded Buffer shares Node's pool with other requests' bytes, which a file cut short would have it read as
    // its size (and the answer show). Past the copy's end, a read throws.
    size = imageSize(new Uint8Array(bytes));
  } catch {
    return `Not a ${contentType} image.`;
  }
  if (size.type !== LOGO_TYPES[contentType] || !size.width || !size.height) return `Not a ${contentType} image.`;
  if (size.width > MAX_LOGO_SIDE || size.height > MAX_LOGO_SIDE) {
    return `The image is ${size.width} × ${size.height} pixels: at most ${MAX_LOGO_SIDE.toLocaleString('en-US')} on each side.`;
  }
  return whole(bytes, size.type) ? null : `The ${contentType} image is damaged or cut short.`;
}

function whole(bytes: Buffer, type: string): boolean {
  try {
    switch (type) {
      case 'png':
        PNG.sync.read(bytes);
        return true;
      case 'gif': {
        const reader = new GifReader(bytes);
        reader.decodeAndBlitFrameRGBA(0, new Uint8Array(reader.width * reader.height * 4));
        return true;
      }
      case 'jpg': {
        let end = bytes.length;
        while (end > 2 && bytes[end - 1] === 0) end--;
        return bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9;
      }
      case 'webp':
        return bytes.readUInt32LE(4) + 8 === bytes.length;
      default:
        return false;
    }
  } catch {
    return false;
  }
}
