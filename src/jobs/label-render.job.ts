import type { Clock } from '../clock.js';
import type { Repositories } from '../db/repositories/index.js';
import type { JobPayloads } from '../db/repositories/jobs.repository.js';
import type { FileStore } from '../documents/file-store.js';
import { LABEL_CONTENT_TYPES } from '../documents/label.types.js';
import type { LabelRenderer } from '../documents/label-renderer.service.js';
import type { EventSink } from '../domain/webhooks/webhook-outbox.js';
import { exponentialBackoff, type JobHandler, type JobOutcome, type JobRun } from './job-handler.js';

/**
 * Finishes a label the carrier delivered late (a booking answered with HTTP 299): renders it, stores the
 * file, marks the document ready. Running it twice stores the same label twice, harmlessly.
 */
export class LabelRenderJob implements JobHandler<'label.render'> {
  readonly kind = 'label.render';
  readonly maxAttempts = 8;
  readonly backoffMs = exponentialBackoff(5_000, 10 * 60_000);

  constructor(
    private readonly repos: Repositories,
    private readonly labels: LabelRenderer,
    private readonly files: FileStore,
    private readonly clock: Clock,
    /** Where a document is announced as ready, in its transaction (webhooks). */
    private readonly events: EventSink,
  ) {}

  async run({ payload }: JobRun<JobPayloads['label.render']>): Promise<JobOutcome> {
    const document = await this.repos.documents.findById(payload.document_row_id);
    if (!document) return { result: 'done' };
    if (document.status === 'ready') return { result: 'done' };
    if (!payload.render) return { result: 'dead', error: 'no label content to render' };
    const rendered = await this.labels.render(payload.render, payload.format);
    const key = `documents/${document.document_uuid}.${payload.format}`;
    await this.files.put(key, rendered.bytes, LABEL_CONTENT_TYPES[payload.format]);
    const now = this.clock.now().toISOString();
    await this.repos.transaction(async (repos) => {
      const ready = await repos.documents.update(document.id, { status: 'ready', file_key: key, updated_at: now });
      await this.events.emit(repos, {
        accountId: ready.account_id,
        type: 'document.ready',
        shipmentRowId: ready.shipment_row_id,
        refs: { document_row_id: ready.id },
      });
    });
    return { result: 'done' };
  }
}
