import { type LabelFormat, type LabelInput, LabelInputError, type RenderedLabel } from './label.types.js';
import { renderLabel } from './label-renderer.js';

/** One render request sent to a pool thread. */
export interface LabelTask {
  input: LabelInput;
  format: LabelFormat;
}

/** What a pool thread sends back: input errors travel as data, since a custom error class does not survive the thread boundary. */
export type LabelTaskResult = { ok: true; label: RenderedLabel } | { ok: false; field: string; message: string };

/** Entry point of a label pool thread (loaded by piscina from this file's default export). */
export default async function renderLabelTask(task: LabelTask): Promise<LabelTaskResult> {
  try {
    return { ok: true, label: await renderLabel(task.input, task.format) };
  } catch (error) {
    if (error instanceof LabelInputError) return { ok: false, field: error.field, message: error.message };
    throw error;
  }
}
