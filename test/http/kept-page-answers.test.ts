import { describe, expect, it } from 'vitest';
import type { ShipmentPage } from '../../src/domain/shipments/rendered-shipment.js';
import { KeptPageAnswers } from '../../src/http/kept-page-answers.js';
import { shipmentPageBytes } from '../../src/http/shipment-reply.js';

const rendering = (id: string, size = 100) => Buffer.from(JSON.stringify({ shipment_id: id, note: 'x'.repeat(size) }));
const pageOf = (texts: Buffer[], next_page: string | null = null): ShipmentPage => ({
  shipments: texts.map((json) => ({ version: 'v5', json, podUrl: null })),
  next_page,
});

describe('whole answers of list pages asked again unchanged', () => {
  it('keeps the answer once a page was asked for twice more with the same renderings, and sends that one', () => {
    const answers = new KeptPageAnswers();
    const texts = [rendering('a'), rendering('b')];
    expect(answers.answer('1:2', pageOf(texts, 'cursor'))).toBeNull();
    expect(answers.answer('1:2', pageOf(texts, 'cursor'))).toBeNull();
    const kept = answers.answer('1:2', pageOf(texts, 'cursor'));
    expect(kept?.equals(shipmentPageBytes(pageOf(texts, 'cursor')))).toBe(true);
    expect(JSON.parse(kept?.toString() ?? '')).toEqual({
      api_response: '200',
      data: [JSON.parse(texts[0].toString()), JSON.parse(texts[1].toString())],
      next_page: 'cursor',
    });
    expect(answers.answer('1:2', pageOf(texts, 'cursor'))).toBe(kept);
    // Another key is another page.
    expect(answers.answer('2:2', pageOf(texts, 'cursor'))).toBeNull();
  });

  it('starts over when a rendering is made anew, even with the same bytes, or next_page changes', () => {
    const answers = new KeptPageAnswers();
    const texts = [rendering('a'), rendering('b')];
    for (let i = 0; i < 3; i++) answers.answer('1:2', pageOf(texts));
    expect(answers.answer('1:2', pageOf(texts))).not.toBeNull();

    const remade = [Buffer.from(texts[0]), texts[1]];
    for (let i = 0; i < 2; i++) expect(answers.answer('1:2', pageOf(remade))).toBeNull();
    expect(answers.answer('1:2', pageOf(remade))?.equals(shipmentPageBytes(pageOf(remade)))).toBe(true);

    expect(answers.answer('1:2', pageOf(remade, 'more'))).toBeNull();
    expect(answers.answer('1:2', pageOf(remade.slice(0, 1), 'more'))).toBeNull();
  });

  it('holds at most its bytes, renderings included, forgetting the pages seen longest ago', () => {
    const answers = new KeptPageAnswers(10_000);
    const pages = Array.from({ length: 10 }, (_, i) => [rendering(`a${i}`, 1_000), rendering(`b${i}`, 1_000)]);
    for (const [i, texts] of pages.entries()) for (let k = 0; k < 3; k++) answers.answer(`${i}:2`, pageOf(texts));
    expect(answers.heldBytes).toBeLessThanOrEqual(10_000);
    expect(answers.heldBytes).toBeGreaterThan(0);
    // The newest is kept whole; the first was forgotten, and starts over.
    expect(answers.answer('9:2', pageOf(pages[9]))).not.toBeNull();
    expect(answers.answer('0:2', pageOf(pages[0]))).toBeNull();
  });
});
