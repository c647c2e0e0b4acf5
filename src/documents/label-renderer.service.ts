import type { LabelFormat, LabelInput, RenderedLabel } from './label.types.js';
import { LabelRenderPool } from './label-pool.js';

/** Renders labels; the worker-thread pool starts on the first label, so processes that never render pay nothing. */
export interface LabelRenderer {
  render(input: LabelInput, format: LabelFormat): Promise<RenderedLabel>;
  close(): Promise<void>;
}

export class PooledLabelRenderer implements LabelRenderer {
  private pool: LabelRenderPool | null = null;

  constructor(private readonly threads?: number) {}

  render(input: LabelInput, format: LabelFormat): Promise<RenderedLabel> {
    this.pool ??= new LabelRenderPool({ threads: this.threads });
    return this.pool.render(input, format);
  }

  async close(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }
}
