import { describe, expect, it } from 'vitest';
import { ANSWER_REVISION, KnownAnswers } from '../../../src/carriers/sdk/known-answers.js';

const request = (tracking_number: string, known_answer?: string | null) => ({ tracking_number, known_answer });

describe('KnownAnswers: carrier data the caller stored before', () => {
  it('is the same only for the same data of the same carrier, whatever form the number is written in', () => {
    const first = new KnownAnswers('fdxglb', [request('799900000043')]);
    expect(first.same('799900000043', { scans: [1, 2] })).toBe(false);
    const fingerprint = first.fingerprintOf('799900000043') as string;
    expect(fingerprint).toMatch(new RegExp(`^fdxglb\\.${ANSWER_REVISION}:[A-Za-z0-9_-]{43}$`));

    const again = new KnownAnswers('fdxglb', [request('7999 0000 0043', fingerprint)]);
    expect(again.same('799900000043', { scans: [1, 2] })).toBe(true);
    expect(again.same('799900000043', { scans: [1, 2, 3] })).toBe(false);
    expect(again.fingerprintOf('7999 0000 0043')).not.toBe(fingerprint);

    // Another carrier's adapter never takes it for its own, even for the same bytes.
    const other = new KnownAnswers('upsglb', [request('799900000043', fingerprint)]);
    expect(other.same('799900000043', { scans: [1, 2] })).toBe(false);
  });

  it('fingerprints bytes and text as received, and parsed entries by their JSON', () => {
    const known = new KnownAnswers('upsglb', []);
    known.same('1Z1', Buffer.from('{"a":1}'));
    const bytes = known.fingerprintOf('1Z1');
    known.same('1Z1', '{"a":1}');
    expect(known.fingerprintOf('1Z1')).toBe(bytes);
    known.same('1Z1', { a: 1 });
    expect(known.fingerprintOf('1Z1')).toBe(bytes);
  });

  it('assumes nothing for a number whose shipments stored different answers, or none', () => {
    const probe = new KnownAnswers('glsglb', []);
    probe.same('531000000039', { parcel: 1 });
    const fingerprint = probe.fingerprintOf('531000000039') as string;

    const shared = new KnownAnswers('glsglb', [request('531000000039', fingerprint), request('531000000039', null)]);
    expect(shared.same('531000000039', { parcel: 1 })).toBe(false);
    const agreed = new KnownAnswers('glsglb', [request('531000000039', fingerprint), request('531000000039', fingerprint)]);
    expect(agreed.same('531000000039', { parcel: 1 })).toBe(true);
    const none = new KnownAnswers('glsglb', [request('531000000039')]);
    expect(none.same('531000000039', { parcel: 1 })).toBe(false);
    expect(none.fingerprintOf('531000000040')).toBeUndefined();
  });
});
