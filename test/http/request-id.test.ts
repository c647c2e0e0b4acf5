import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIds } from '../../src/http/request-id.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('each answer carries its own, shaped as a random UUID', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i++) {
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      const id = res.headers['x-request-id'] as string;
      expect(id).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(20);
  });

  it('differ between processes, and stay unique across the counter', () => {
    const [a, b] = [requestIds(), requestIds()];
    expect(a().slice(0, 24)).not.toBe(b().slice(0, 24));
    const seen = new Set(Array.from({ length: 10_000 }, a));
    expect(seen.size).toBe(10_000);
    for (const id of seen) expect(id).toMatch(UUID);
  });
});
