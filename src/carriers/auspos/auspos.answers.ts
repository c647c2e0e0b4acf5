import { AUSPOST_NOT_FOUND } from './auspos.codes.js';
import type { AusPostTrackingAnswer, AusPostTrackingResult } from './auspos.payload.js';

/**
 * The "Track items" answer as Australia Post documents it, for the ids asked and in their order: each id's result,
 * or `ESB-10001` (invalid tracking id) for an id without one. What Australia Post's stand-ins answer, in the tests
 * and in the benchmark's local carriers (the adapter itself only reads answers). Pure.
 */
export function trackItemsAnswer(
  ids: readonly string[],
  resultOf: (id: string) => AusPostTrackingResult | undefined,
): { tracking_results: AusPostTrackingResult[] } & AusPostTrackingAnswer {
  return {
    tracking_results: ids.map(
      (id) => resultOf(id) ?? { tracking_id: id, errors: [{ code: AUSPOST_NOT_FOUND, name: 'Invalid tracking ID' }] },
    ),
  };
}
