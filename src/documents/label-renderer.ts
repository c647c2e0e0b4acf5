import {
  LABEL_CONTENT_TYPES,
  LABEL_FORMATS,
  type LabelFormat,
  type LabelInput,
  LabelInputError,
  type RenderedLabel,
} from './label.types.js';
import { layoutLabel } from './label-layout.js';
import { renderLabelPdf } from './label-pdf.js';
import { renderLabelPng } from './label-png.js';
import { renderLabelZpl } from './label-zpl.js';

/**
 * Renders a label in the calling thread. CPU-bound (a few milliseconds to tens of milliseconds):
 * services call it through {@link LabelRenderPool} so the event loop stays free; tests and scripts may call it directly.
 * Throws LabelInputError when the input cannot be printed.
 */
export async function renderLabel(input: LabelInput, format: LabelFormat): Promise<RenderedLabel> {
  if (!LABEL_FORMATS.includes(format)) throw new LabelInputError('format', `must be one of ${LABEL_FORMATS.join(', ')}`);
  const layout = layoutLabel(input);
  const bytes = format === 'pdf' ? await renderLabelPdf(layout) : format === 'zpl' ? renderLabelZpl(layout) : renderLabelPng(layout);
  return { format, contentType: LABEL_CONTENT_TYPES[format], extension: format, bytes };
}
