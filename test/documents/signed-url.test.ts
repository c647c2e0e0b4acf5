import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signPath, signUrlQuery, verifySignedPath, verifySignedUrlQuery } from '../../src/documents/signed-url.js';
import { Secrets } from '../../src/secrets.js';

const key = new Secrets(randomBytes(32)).urlKey;
const path = '/v5/shipments/documents/0b9e8a4c-3f52-4a8e-9d61-1c2b3a4d5e6f/download/';
const now = new Date('2026-01-15T10:00:00.000Z');
const expiresAt = new Date('2026-01-15T10:15:00.000Z');

describe('signed URLs', () => {
  it('produces an expires/signature query that verifies until it expires', () => {
    const signed = signPath(path, key, expiresAt);
    expect(signed).toMatch(new RegExp(`^${path}\\?expires=${expiresAt.getTime() / 1000}&signature=[A-Za-z0-9_-]{43}$`));
    expect(verifySignedPath(signed, key, now)).toBe('ok');
    expect(verifySignedPath(`https://api.example.com${signed}`, key, new Date('2026-01-15T10:14:59.999Z'))).toBe('ok');
    expect(verifySignedPath(signed, key, expiresAt)).toBe('expired');
    expect(verifySignedPath(signed, key, new Date('2026-02-01T00:00:00Z'))).toBe('expired');
  });

  it('rejects tampering with the path, the expiry or the signature, and other keys', () => {
    const { expires, signature } = signUrlQuery(path, key, expiresAt);
    expect(verifySignedUrlQuery(path, { expires, signature }, key, now)).toBe('ok');
    expect(verifySignedUrlQuery(path.replace('0b9e', '0b9f'), { expires, signature }, key, now)).toBe('invalid');
    expect(verifySignedUrlQuery(path, { expires: String(Number(expires) + 3600), signature }, key, now)).toBe('invalid');
    for (let position = 0; position < signature.length; position++) {
      const flipped = signature[position] === 'A' ? 'B' : 'A';
      const tampered = signature.slice(0, position) + flipped + signature.slice(position + 1);
      expect(verifySignedUrlQuery(path, { expires, signature: tampered }, key, now), `position ${position}`).toBe('invalid');
    }
    expect(verifySignedUrlQuery(path, { expires, signature }, randomBytes(32), now)).toBe('invalid');
    expect(verifySignedUrlQuery(path, { expires }, key, now)).toBe('invalid');
    expect(verifySignedUrlQuery(path, { expires: ['1', '2'], signature }, key, now)).toBe('invalid');
    expect(verifySignedPath(`${path}?expires=${expires}&expires=1&signature=${signature}`, key, now)).toBe('invalid');
    expect(verifySignedPath(`${path}?expires=-1&signature=${signature}`, key, now)).toBe('invalid');
  });

  it('refuses an expiry that is not plain decimal digits, even under a valid signature', () => {
    const macOf = (expires: string) => createHmac('sha256', key).update(`${path}\n${expires}`).digest('base64url');
    for (const expires of ['1e99', '0x7fffffff', '9999999999.5', ' 9999999999', '1'.repeat(13)]) {
      expect(verifySignedUrlQuery(path, { expires, signature: macOf(expires) }, key, now), expires).toBe('invalid');
    }
    expect(verifySignedUrlQuery(path, { expires: '9999999999', signature: macOf('9999999999') }, key, now)).toBe('ok');
  });

  it('refuses to sign a path that already has a query', () => {
    expect(() => signPath('/a?b=c', key, expiresAt)).toThrow();
    expect(() => signPath('relative', key, expiresAt)).toThrow();
  });
});
