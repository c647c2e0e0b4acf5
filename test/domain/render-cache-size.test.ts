import { describe, expect, it } from 'vitest';
import { defaultRenderCacheMegabytes, loadConfig, RENDER_CACHE_DEFAULT_MB } from '../../src/config.js';

const GiB = 1024 ** 3;

describe('the render cache default', () => {
  it('is an eighth of the memory, shared by the processes, from 32 to 256 MiB', () => {
    expect(defaultRenderCacheMegabytes(1, 1 * GiB)).toBe(128);
    expect(defaultRenderCacheMegabytes(1, 512 * 1024 ** 2)).toBe(64);
    expect(defaultRenderCacheMegabytes(4, 2 * GiB)).toBe(64);
    expect(defaultRenderCacheMegabytes(1, 24 * GiB)).toBe(RENDER_CACHE_DEFAULT_MB.max);
    expect(defaultRenderCacheMegabytes(8, 24 * GiB)).toBe(RENDER_CACHE_DEFAULT_MB.max);
    expect(defaultRenderCacheMegabytes(1, 128 * 1024 ** 2)).toBe(RENDER_CACHE_DEFAULT_MB.min);
    expect(defaultRenderCacheMegabytes(16, 2 * GiB)).toBe(RENDER_CACHE_DEFAULT_MB.min);
  });

  it('is what a process takes when WAYBILL_RENDER_CACHE_MB is not set, and the setting wins when it is', () => {
    expect(loadConfig({}).renderCacheMegabytes).toBe(defaultRenderCacheMegabytes());
    expect(loadConfig({ WAYBILL_RENDER_CACHE_MB: '' }).renderCacheMegabytes).toBe(defaultRenderCacheMegabytes());
    expect(loadConfig({ WAYBILL_RENDER_CACHE_MB: '0' }).renderCacheMegabytes).toBe(0);
    expect(loadConfig({ WAYBILL_RENDER_CACHE_MB: '1000' }).renderCacheMegabytes).toBe(1000);
  });
});
