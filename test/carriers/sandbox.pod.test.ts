import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { drawProofOfDelivery, proofOfDeliveryPng } from '../../src/carriers/sandbox/sandbox.pod.js';

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest();

describe('sandbox proof of delivery image', () => {
  it('is the same bytes as before images were kept', () => {
    // Drawn by the release before images were kept: a shipment's stored proof keeps matching a new download.
    const before: Record<string, string> = {
      WB4000004: 'cbfc54c673bbc3a920b42c31b2e0eb22145689a51b46f0783636e455eb53a957',
      JJD000123: '10716879fba1b96243f7e2752c3ac40fc778e575aacb573a132101fe84c38fb0',
      '1Z999AA10123456784': '13f64389f22ee42c0177258dbe3a111b4f12e66e5590bd3a3153941d96e8d7c0',
    };
    for (const round of [1, 2]) {
      for (const [trackingNumber, hash] of Object.entries(before)) {
        expect(sha256(proofOfDeliveryPng(trackingNumber)).toString('hex'), `${trackingNumber}, call ${round}`).toBe(hash);
      }
    }
  });

  it('is, when kept, the image its tracking number draws anew', () => {
    // 6,000 numbers draw about 4,400 of the 8,960 images: some 1,600 of them get an image another number drew
    // first, which must be the image their own hash draws.
    let shared = 0;
    const seen = new Set<string>();
    for (let i = 0; i < 6_000; i++) {
      const trackingNumber = `JJD${String(i).padStart(8, '0')}`;
      const png = proofOfDeliveryPng(trackingNumber);
      const anew = drawProofOfDelivery(sha256(trackingNumber));
      if (!png.equals(anew)) throw new Error(`${trackingNumber}: the kept image differs from the one drawn anew`);
      const digest = sha256(png).toString('hex');
      if (seen.has(digest)) shared++;
      seen.add(digest);
    }
    expect(shared).toBeGreaterThan(1_000);
  });

  it('is handed out as a copy', () => {
    const first = proofOfDeliveryPng('WB4000004');
    first.fill(0);
    expect(sha256(proofOfDeliveryPng('WB4000004')).toString('hex')).toBe(
      'cbfc54c673bbc3a920b42c31b2e0eb22145689a51b46f0783636e455eb53a957',
    );
  });
});
