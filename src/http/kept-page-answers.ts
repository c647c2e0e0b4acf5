import type { ShipmentPage } from '../domain/shipments/rendered-shipment.js';
import { shipmentPageBytes } from './shipment-reply.js';

interface Seen {
  /** The renderings the page was made of, in order: a rendering made anew is another buffer. */
  texts: Buffer[];
  next_page: string | null;
  /** Times the page was asked for in a row with these renderings. */
  repeats: number;
  /** The whole answer, once the page was asked for unchanged `BUILD_AFTER` times. */
  answer: Buffer | null;
  /** What keeping it holds: its renderings, and the answer once made. */
  bytes: number;
}

/** Asks of one page, unchanged, after which its whole answer is kept. */
const BUILD_AFTER = 2;

/**
 * Whole answers to first list pages that are asked for again and again unchanged, as a shop or warehouse polling its
 * list between creates does: joining a page's twenty renderings (about 117 KB) into one answer costs as much as
 * reading and checking it. A page's answer is made of its renderings (each a buffer the reader keeps, made anew
 * whenever the shipment changes) and its `next_page`, so the same buffers in the same order with the same
 * `next_page` make the same bytes. The answer is kept once the page was asked for `BUILD_AFTER` times in a row
 * unchanged, so that pages that change between asks (an account creating as often as it lists) allocate nothing
 * more; it is sent as it is, never written into again. At most `maxBytes` are held, renderings included (a rendering
 * held here outlives its place in the reader's cache); beyond that the pages seen longest ago go first.
 */
export class KeptPageAnswers {
  private readonly seen = new Map<string, Seen>();
  private held = 0;

  constructor(private readonly maxBytes = 32 * 1024 * 1024) {}

  /** The kept answer to this page of `key` (account and limit) when it is the one asked before; else null. */
  answer(key: string, page: ShipmentPage): Buffer | null {
    const seen = this.seen.get(key);
    if (seen && sameAnswer(seen, page)) {
      if (seen.answer) return seen.answer;
      if (++seen.repeats < BUILD_AFTER) return null;
      seen.answer = shipmentPageBytes(page);
      this.hold(seen, seen.bytes + seen.answer.length);
      return seen.answer;
    }
    if (seen) this.forget(key, seen);
    const texts = page.shipments.map((shipment) => shipment.json);
    const entry: Seen = { texts, next_page: page.next_page, repeats: 0, answer: null, bytes: 0 };
    this.seen.set(key, entry);
    this.hold(
      entry,
      texts.reduce((sum, text) => sum + text.length, 0),
    );
    return null;
  }

  /** Bytes held now (for tests). */
  get heldBytes(): number {
    return this.held;
  }

  private hold(entry: Seen, bytes: number): void {
    this.held += bytes - entry.bytes;
    entry.bytes = bytes;
    for (const [key, oldest] of this.seen) {
      if (this.held <= this.maxBytes) break;
      this.forget(key, oldest);
    }
  }

  private forget(key: string, entry: Seen): void {
    this.seen.delete(key);
    this.held -= entry.bytes;
  }
}

function sameAnswer(seen: Seen, page: ShipmentPage): boolean {
  const { shipments } = page;
  if (seen.next_page !== page.next_page || seen.texts.length !== shipments.length) return false;
  for (let i = 0; i < shipments.length; i++) {
    const shipment = shipments[i];
    if (shipment.json !== seen.texts[i] || shipment.version !== 'v5' || shipment.podUrl !== null) return false;
  }
  return true;
}
