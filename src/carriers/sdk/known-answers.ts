import { hash } from 'node:crypto';

/**
 * Raised whenever the same carrier data would be mapped differently (a mapper, a code table or the event
 * model changed): every fingerprint made before then stops matching, so each number is mapped again once.
 */
export const ANSWER_REVISION = 1;

/**
 * The fingerprints of one poll: for each number, the one the caller stored with its last full answer
 * (`TrackRequest.known_answer`), and the one of the carrier data this poll got. An adapter asks `same`
 * before it maps a number's data; when it is the data the stored answer was made from, the number is
 * answered `unchanged` and its data is not mapped (most polls of a shipment bring nothing new).
 *
 * A fingerprint covers all the data the mapper reads for the number (one number's body, or its entry in a
 * batch answer) and the adapter's id and `ANSWER_REVISION`, so it can only match an answer that maps the same.
 */
export class KnownAnswers {
  private readonly known = new Map<string, string | null>();
  private readonly seen = new Map<string, string>();
  private readonly prefix: string;

  constructor(carrierId: string, requests: ReadonlyArray<{ tracking_number: string; known_answer?: string | null }>) {
    this.prefix = `${carrierId}.${ANSWER_REVISION}:`;
    for (const request of requests) {
      const number = normalize(request.tracking_number);
      const known = request.known_answer ?? null;
      // Shipments that share a number but stored different answers: none is assumed.
      this.known.set(number, this.known.has(number) && this.known.get(number) !== known ? null : known);
    }
  }

  /**
   * Records the carrier's data for a number (raw bytes or text as received, or the parsed entry that answers
   * for it) and says whether it is the data of the answer the caller stored.
   */
  same(trackingNumber: string, data: Uint8Array | string | object): boolean {
    const bytes = typeof data === 'string' || data instanceof Uint8Array ? data : JSON.stringify(data);
    const fingerprint = this.prefix + hash('sha256', bytes, 'base64url');
    const number = normalize(trackingNumber);
    this.seen.set(number, fingerprint);
    const known = this.known.get(number);
    return known !== undefined && known !== null && known === fingerprint;
  }

  /** The fingerprint of the data `same` was given for this number in this poll, if it was. */
  fingerprintOf(trackingNumber: string): string | undefined {
    return this.seen.get(normalize(trackingNumber));
  }
}

/**
 * Given to a mapper of batch answers: whether a number's entry (all the mapper reads for it) is the data of the
 * answer the caller stored; the mapper then answers it `unchanged` without mapping it.
 */
export type SameAnswer = (trackingNumber: string, data: object) => boolean;

/** One form of a number however it was written (spaces, case): what the adapter base and the fingerprints key by. */
export function normalize(trackingNumber: string): string {
  return trackingNumber.replace(/\s+/g, '').toUpperCase();
}
