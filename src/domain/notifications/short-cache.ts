/**
 * Values kept for a moment (a second by default) so that a burst of messages of one account reads its
 * settings, templates and name once, not once per message. A change made in this process drops the
 * account's entries at once; other processes see it when their entries expire.
 */
export class ShortCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();

  constructor(
    private readonly ttlMs = 1_000,
    private readonly max = 10_000,
  ) {}

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && hit.until > now) return hit.value;
    const value = await load();
    if (this.entries.size >= this.max) this.entries.clear();
    this.entries.set(key, { value, until: now + this.ttlMs });
    return value;
  }

  /** Drops every entry whose key starts with `prefix` (an account's, as `<account id>:`). */
  drop(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }
}
