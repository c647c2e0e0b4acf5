import { randomFillSync } from 'node:crypto';
import { GifWriter } from 'omggif';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logoProblem } from '../../src/documents/logo-image.js';
import { createTestApp, type TestAccount, type TestApp } from '../helpers/app.js';
import { enablePortal, portalBrowser } from './portal-fixtures.js';

/** A PNG of noise (which does not compress), or of one grey. */
function png(width: number, height: number, noise = false): Buffer {
  const image = new PNG({ width, height });
  if (noise) randomFillSync(image.data);
  else image.data.fill(200);
  return PNG.sync.write(image);
}

/** A PNG of a gradient: large in pixels, small in bytes (it compresses). */
function gradient(width: number, height: number): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) {
    image.data[i] = (i >> 12) & 255;
    image.data[i + 1] = 30;
    image.data[i + 2] = 60;
    image.data[i + 3] = 255;
  }
  return PNG.sync.write(image, { deflateLevel: 9 });
}

/** The longest the event loop went without turning while `work` ran (ms), seen by a timer every millisecond. */
async function longestStall(work: () => Promise<void>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  try {
    await new Promise((resolve) => setTimeout(resolve, 5));
    await work();
    await new Promise((resolve) => setTimeout(resolve, 5));
  } finally {
    clearInterval(timer);
  }
  return longest;
}

/** PUT/DELETE /v5/returns/policy/logo/: a logo kept in the database and served by the portal. */
describe("the returns portal's uploaded logo", () => {
  let t: TestApp;
  let shop: TestAccount;
  let ref: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { WAYBILL_PUBLIC_URL: 'https://returns.shop.example' } });
    shop = await t.account({ features: ['returns'] });
    ref = await enablePortal(t, shop, (policy) => {
      policy.branding.logo_url = 'https://cdn.shop.example/logo.png';
    });
  });
  afterAll(() => t?.close());

  const upload = (body: unknown) => t.as(shop)('PUT', '/v5/returns/policy/logo/', body);

  it('stores a PNG, shows it instead of logo_url, and serves it from the portal', async () => {
    const image = png(40, 20);
    const res = await upload({ content_type: 'image/png', content_base64: image.toString('base64') });
    expect(res.statusCode, res.body).toBe(200);
    const logo = res.json().data.branding.uploaded_logo;
    expect(logo).toEqual({
      content_type: 'image/png',
      bytes: image.length,
      url: expect.stringMatching(new RegExp(`^https://returns\\.shop\\.example/returns/${ref}/logo\\?v=[0-9a-f]{16}$`)),
    });
    const page = await portalBrowser(t).get(`/returns/${ref}`);
    const src = /<img src="([^"]+)"/.exec(page.body)?.[1];
    expect(src).toBe(new URL(logo.url).pathname + new URL(logo.url).search);
    // The merchant's URL is not used while the uploaded logo is there, so the policy allows no other origin.
    expect(page.headers['content-security-policy']).toContain("img-src 'self';");
    const served = await portalBrowser(t).get(src as string);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.equals(image)).toBe(true);
  });

  it('keeps the uploaded logo when the policy is replaced', async () => {
    const policy = (await t.as(shop)('GET', '/v5/returns/policy/')).json().data;
    policy.return_window_days = 14;
    const res = await t.as(shop)('PUT', '/v5/returns/policy/', policy);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['waybill-ignored-fields']).toBeUndefined();
    expect(res.json().data.branding.uploaded_logo).not.toBeNull();
  });

  it('refuses an SVG, bytes that are not the type named, bad Base64 and an image over 256 KiB, keeping the logo it had', async () => {
    const before = (await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo;
    const svg = await upload({ content_type: 'image/svg+xml', content_base64: Buffer.from('<svg/>').toString('base64') });
    expect(svg.statusCode).toBe(400);
    expect(svg.json().errors.content_type).toEqual(['Must be one of: image/png, image/jpeg, image/gif, image/webp.']);
    const notPng = await upload({ content_type: 'image/png', content_base64: Buffer.from('GIF89a....').toString('base64') });
    expect(notPng.json().errors.content_base64).toEqual(['Not a image/png image.']);
    const garbled = await upload({ content_type: 'image/png', content_base64: '!!!not base64!!!' });
    expect(garbled.json().errors.content_base64).toEqual(['Not valid Base64.']);
    const large = await upload({ content_type: 'image/png', content_base64: png(260, 260, true).toString('base64') });
    expect(large.statusCode).toBe(400);
    expect(large.json().errors.content_base64).toEqual(['The image is over 256 KiB.']);
    expect((await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo).toEqual(before);
  });

  it('refuses an image cut short or damaged, one over 2,048 pixels a side, and one of another type than named', async () => {
    const before = (await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo;
    const whole = png(40, 20, true);
    const refused = async (contentType: string, bytes: Buffer) => {
      const res = await upload({ content_type: contentType, content_base64: bytes.toString('base64') });
      expect(res.statusCode, res.body).toBe(400);
      return res.json().errors.content_base64;
    };
    expect(await refused('image/png', whole.subarray(0, Math.floor(whole.length * 0.6)))).toEqual([
      'The image/png image is damaged or cut short.',
    ]);
    const flipped = Buffer.from(whole);
    flipped[whole.length - 30] ^= 0xff;
    expect(await refused('image/png', flipped)).toEqual(['The image/png image is damaged or cut short.']);
    // The signature alone was once enough.
    expect(await refused('image/png', Buffer.concat([whole.subarray(0, 8), Buffer.alloc(64, 7)]))).toEqual(['Not a image/png image.']);
    expect(await refused('image/png', png(3000, 1))).toEqual(['The image is 3000 × 1 pixels: at most 2,048 on each side.']);
    expect(await refused('image/jpeg', whole)).toEqual(['Not a image/jpeg image.']);
    // A JPEG's header (start of image, a JFIF segment, a baseline frame of 32 × 16) without its end-of-image marker.
    const jpegHead = Buffer.from('ffd8ffe000104a46494600010100000100010000ffc0000b080010002001011100', 'hex');
    expect(await refused('image/jpeg', jpegHead)).toEqual(['The image/jpeg image is damaged or cut short.']);
    expect(await refused('image/gif', Buffer.from('GIF89a'))).toEqual(['Not a image/gif image.']);
    expect((await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo).toEqual(before);

    const jpeg = await upload({
      content_type: 'image/jpeg',
      content_base64: Buffer.concat([jpegHead, Buffer.from('ffd9', 'hex')]).toString('base64'),
    });
    expect(jpeg.statusCode, jpeg.body).toBe(200);
    const gif = Buffer.alloc(200);
    const writer = new GifWriter(gif, 2, 2, { palette: [0x000000, 0xffffff] });
    writer.addFrame(0, 0, 2, 2, [0, 1, 1, 0]);
    const gifBytes = gif.subarray(0, writer.end());
    expect((await upload({ content_type: 'image/gif', content_base64: gifBytes.toString('base64') })).statusCode).toBe(200);
    expect(await refused('image/gif', gifBytes.subarray(0, gifBytes.length - 4))).toEqual(['The image/gif image is damaged or cut short.']);
    // A lossless WebP's header, 1 × 1, in a RIFF file as long as it says; then cut by one byte.
    const webpWhole = Buffer.concat([
      Buffer.from('RIFF'),
      Buffer.from([24, 0, 0, 0]),
      Buffer.from('WEBPVP8L'),
      Buffer.from([12, 0, 0, 0, 0x2f, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
    ]);
    expect(webpWhole.readUInt32LE(4) + 8).toBe(webpWhole.length);
    expect(await refused('image/webp', webpWhole.subarray(0, webpWhole.length - 1))).toEqual([
      'The image/webp image is damaged or cut short.',
    ]);
    const accepted = await upload({ content_type: 'image/webp', content_base64: webpWhole.toString('base64') });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.branding.uploaded_logo.content_type).toBe('image/webp');
  });

  it('checks a logo off the request thread: the event loop keeps turning while a large PNG is decoded', async () => {
    const image = gradient(2048, 2048);
    expect(image.length).toBeLessThan(256 * 1024);
    // Warm: the check's thread is running, and the image's route and code paths have been taken once.
    expect((await upload({ content_type: 'image/png', content_base64: image.toString('base64') })).statusCode).toBe(200);
    // The least of two, the first warming this thread's code for the decode.
    const decode = () =>
      longestStall(async () => {
        expect(logoProblem(image, 'image/png')).toBeNull();
      });
    const onThisThread = Math.min(await decode(), await decode());
    // The least of two here too: on a loaded machine another process can take this thread's core during either.
    const uploadOnce = () =>
      longestStall(async () => {
        const res = await upload({ content_type: 'image/png', content_base64: image.toString('base64') });
        expect(res.statusCode, res.body).toBe(200);
      });
    const uploaded = Math.min(await uploadOnce(), await uploadOnce());
    // Decoding on this thread stops its event loop for the whole decode; the upload's check does not.
    expect(uploaded).toBeLessThan(onThisThread / 4);
  });

  it('refuses uploads beyond those the check can hold waiting, 503 with Retry-After; the stored logo stays the image', async () => {
    const image = gradient(2048, 2048);
    const before = (await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo;
    const answers = await Promise.all(
      Array.from({ length: 14 }, () => upload({ content_type: 'image/png', content_base64: image.toString('base64') })),
    );
    const refused = answers.filter((res) => res.statusCode === 503);
    expect(answers.filter((res) => res.statusCode === 200).length + refused.length).toBe(14);
    expect(refused.length).toBeGreaterThan(0);
    for (const res of refused) {
      expect(res.headers['retry-after']).toBe('1');
      expect(res.json()).toEqual({
        api_response: '500',
        message: 'Uploaded logos are being checked for other requests; send the logo again in a moment',
      });
    }
    const after = (await t.as(shop)('GET', '/v5/returns/policy/')).json().data.branding.uploaded_logo;
    expect(after.bytes).toBe(image.length);
    expect(before.bytes).toBe(image.length);
  });

  it('removes it: the portal shows logo_url again and the old address answers 404', async () => {
    const src = /<img src="([^"]+)"/.exec((await portalBrowser(t).get(`/returns/${ref}`)).body)?.[1] as string;
    const res = await t.as(shop)('DELETE', '/v5/returns/policy/logo/');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.branding.uploaded_logo).toBeNull();
    const page = await portalBrowser(t).get(`/returns/${ref}`);
    expect(page.body).toContain('<img src="https://cdn.shop.example/logo.png"');
    expect(page.headers['content-security-policy']).toContain("img-src 'self' https://cdn.shop.example;");
    expect((await portalBrowser(t).get(src)).statusCode).toBe(404);
  });
});
