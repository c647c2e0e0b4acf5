import { describe, expect, it } from 'vitest';
import { logoProblem } from '../../src/documents/logo-image.js';

describe('logoProblem', () => {
  it('reads a logo only within its own bytes, never the memory that follows them', () => {
    // A GIF cut after its signature, followed in the same memory by what would read as a 5000 × 4000 screen: a
    // decoded upload's Buffer shares Node's pool with other bytes in just this way.
    const memory = Buffer.concat([Buffer.from('GIF89a'), Buffer.from([0x88, 0x13, 0xa0, 0x0f]), Buffer.alloc(64, 0x41)]);
    const upload = memory.subarray(0, 6);
    expect(logoProblem(upload, 'image/gif')).toBe('Not a image/gif image.');
    const png = Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.from([0, 0, 0x13, 0x88, 0, 0, 0x0f, 0xa0])]);
    expect(logoProblem(png.subarray(0, 16), 'image/png')).toBe('Not a image/png image.');
  });
});
