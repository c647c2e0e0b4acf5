import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';

/**
 * The sandbox's proof of delivery: a small greyscale PNG of a recipient's signature, drawn from the
 * tracking number's hash so the same shipment always has the same image.
 */

const WIDTH = 240;
const HEIGHT = 80;

/**
 * Images drawn so far, by the three values that draw one (`signatureKey`): at most 5 × 7 × 256 = 8,960 images of
 * about half a kilobyte, each in memory of its own. Drawing and compressing one costs about 400 µs of CPU, which a
 * worker tracking sandbox shipments paid for each delivery.
 */
const drawn = new Map<number, Buffer>();

export function proofOfDeliveryPng(trackingNumber: string): Buffer {
  const seed = createHash('sha256').update(trackingNumber).digest();
  const key = signatureKey(seed);
  let png = drawn.get(key);
  if (!png) {
    const made = drawProofOfDelivery(seed);
    // Copied out of the pool Node allocates small buffers from, so that a kept image holds no more than itself.
    png = Buffer.allocUnsafeSlow(made.length);
    made.copy(png);
    drawn.set(key, png);
  }
  // A copy: the caller may keep or change it.
  return Buffer.from(png);
}

/** What the signature is drawn from: its two frequencies and its phase (see `drawProofOfDelivery`), as one number. */
function signatureKey(seed: Buffer): number {
  return ((seed[0] % 5) * 7 + (seed[1] % 7)) * 256 + seed[2];
}

/** The image of a tracking number's hash, drawn anew. Exported for the test that compares it with a kept one. */
export function drawProofOfDelivery(seed: Buffer): Buffer {
  const pixels = Buffer.alloc(WIDTH * HEIGHT, 0xff);
  const ink = (x: number, y: number) => {
    for (let dy = 0; dy < 2; dy++) {
      for (let dx = 0; dx < 2; dx++) {
        const px = Math.round(x) + dx;
        const py = Math.round(y) + dy;
        if (px >= 0 && px < WIDTH && py >= 0 && py < HEIGHT) pixels[py * WIDTH + px] = 0x20;
      }
    }
  };
  // Frame and signature line.
  for (let x = 0; x < WIDTH; x++) {
    pixels[x] = 0x80;
    pixels[(HEIGHT - 1) * WIDTH + x] = 0x80;
    if (x >= 16 && x < WIDTH - 16) pixels[62 * WIDTH + x] = 0xa0;
  }
  for (let y = 0; y < HEIGHT; y++) {
    pixels[y * WIDTH] = 0x80;
    pixels[y * WIDTH + WIDTH - 1] = 0x80;
  }
  // The signature: a sum of waves whose frequencies and phases come from the hash.
  const a = 1 + (seed[0] % 5);
  const b = 3 + (seed[1] % 7);
  const phase = (seed[2] / 255) * Math.PI * 2;
  for (let t = 0; t <= 2000; t++) {
    const u = t / 2000;
    const x = 24 + u * (WIDTH - 48) + 8 * Math.sin(u * Math.PI * 2 * b + phase);
    const y = 38 + 16 * Math.sin(u * Math.PI * 2 * a + phase) * Math.cos(u * Math.PI * b);
    ink(x, y);
  }
  return encodeGreyscalePng(WIDTH, HEIGHT, pixels);
}

function encodeGreyscalePng(width: number, height: number, pixels: Buffer): Buffer {
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width + 1)] = 0; // filter type: none
    pixels.copy(raw, y * (width + 1) + 1, y * width, (y + 1) * width);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // colour type: greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typeAndData = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typeAndData));
  return Buffer.concat([length, typeAndData, crc]);
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
