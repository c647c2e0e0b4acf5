import { afterEach, describe, expect, it } from 'vitest';
import { type LabelFormat, LabelInputError } from '../../src/documents/label.types.js';
import { LabelRenderPool } from '../../src/documents/label-pool.js';
import { sampleLabelInput } from './label-fixtures.js';
import { readPdf } from './pdf-text.js';

describe('LabelRenderPool', () => {
  let pool: LabelRenderPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('renders several labels concurrently on worker threads, then closes', async () => {
    pool = new LabelRenderPool({ threads: 2 });
    expect(pool.threads).toBe(2);
    const formats: LabelFormat[] = ['pdf', 'zpl', 'png', 'pdf', 'zpl', 'png', 'pdf', 'pdf'];
    const labels = await Promise.all(
      formats.map((format, index) => pool!.render(sampleLabelInput({ tracking_number: `SBX${1000 + index}` }), format)),
    );
    labels.forEach((label, index) => {
      expect(label.format).toBe(formats[index]);
      expect(label.bytes.byteLength).toBeGreaterThan(500);
    });
    expect(Buffer.from(labels[1].bytes).toString('utf8')).toContain('^FDSBX1001^FS');
    const { pages } = await readPdf(labels[7].bytes);
    expect(pages[0].text).toContain('SBX1007');
    expect(pool.completed).toBe(formats.length);

    await pool.close();
    await expect(pool.render(sampleLabelInput(), 'pdf')).rejects.toThrow(/closed/);
  });

  it('passes input errors back as LabelInputError', async () => {
    pool = new LabelRenderPool({ threads: 1 });
    const failure = await pool.render(sampleLabelInput({ tracking_number: '' }), 'pdf').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(LabelInputError);
    expect((failure as LabelInputError).field).toBe('tracking_number');
  });
});
