import { describe, expect, it } from 'vitest';
import { isWebAddress } from '../../src/core/web-address.js';

describe('a web address (product links, return proofs, portal logos)', () => {
  it('takes http and https URLs with a host, or https alone when asked', () => {
    for (const url of ['https://shop.example/kit?size=m#top', 'http://shop.example:8080/kit', 'HTTPS://CDN.shop.example/l.png']) {
      expect(isWebAddress(url), url).toBe(true);
    }
    expect(isWebAddress('https://cdn.shop.example/logo.png', 'https')).toBe(true);
    expect(isWebAddress('http://cdn.shop.example/logo.png', 'https')).toBe(false);
  });

  it('refuses what a URL parser would read as a host though none follows the two slashes', () => {
    for (const url of [
      'https:///logo.png',
      'https:/cdn.shop.example/logo.png',
      'https:cdn.shop.example/logo.png',
      'https://\\cdn.shop.example/logo.png',
      'https://',
      'https:// cdn.shop.example/l.png',
    ]) {
      expect(isWebAddress(url), url).toBe(false);
      expect(isWebAddress(url, 'https'), url).toBe(false);
    }
  });

  it('refuses other schemes, ports no browser connects to and text that is no URI', () => {
    for (const url of [
      'javascript:alert(1)',
      'data:image/png;base64,iVBORw0KGgo=',
      'file:///etc/passwd',
      'https://:80/',
      'http://example.com:99999/',
      'https://cdn.shop.example/my logo.png',
      'not a url',
    ]) {
      expect(isWebAddress(url), url).toBe(false);
    }
  });
});
