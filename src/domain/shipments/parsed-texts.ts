/**
 * Values made from stored JSON text, kept by the text: the same text gives the same value, made once while it is
 * kept. Tracking events store their location and additional_info as JSON text, and a carrier's hubs and status
 * codes repeat across thousands of events; parsing them again for every event rendered was most of what rendering
 * one cost. The value is a function of the text alone, so a kept one is never stale.
 *
 * Every event with the same text is given the same object: read it, never write to it. The oldest kept text makes
 * way for a new one past `capacity`.
 */
export class ParsedTexts<T> {
  private readonly kept = new Map<string, T>();

  constructor(
    private readonly capacity: number,
    private readonly make: (text: string) => T,
  ) {}

  get(text: string): T {
    let value = this.kept.get(text);
    if (value === undefined && !this.kept.has(text)) {
      value = this.make(text);
      if (this.kept.size >= this.capacity) this.kept.delete(this.kept.keys().next().value as string);
      this.kept.set(text, value);
    }
    return value as T;
  }

  /** How many texts are kept. */
  get size(): number {
    return this.kept.size;
  }
}
