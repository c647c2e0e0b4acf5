import type { RoyalmEventsBody, RoyalmEventsMailPiece, RoyalmSummaryMailPiece } from './royalm.payload.js';

/**
 * Royal Mail's summary answer as the Tracking API v2 documents it (`summaryMailPiecesDef`), built from what a mail
 * piece's history holds: what Royal Mail's stand-ins answer, in the transport tests and in the benchmark's local
 * carriers (the adapter itself only reads answers). Pure.
 */

/** The summary entry of a mail piece Royal Mail knows: its history's summary, and the link to that history. */
export function summaryEntryOf(
  mailPieceId: string,
  history: RoyalmEventsBody,
): RoyalmSummaryMailPiece & Pick<RoyalmEventsMailPiece, 'carrierShortName' | 'carrierFullName'> {
  const piece = (history.mailPieces ?? {}) as RoyalmEventsMailPiece;
  return {
    mailPieceId,
    status: '200',
    carrierShortName: 'RM',
    carrierFullName: 'Royal Mail Group Ltd',
    summary: piece.summary,
    links: { events: { href: `/mailpieces/v2/${mailPieceId}/events`, title: 'Events', description: 'Get events' } },
  };
}

/** The summary entry of a mail piece Royal Mail does not know: `404` with the error it gives (E1142). */
export function unknownSummaryEntry(mailPieceId: string, error: unknown): RoyalmSummaryMailPiece {
  return { mailPieceId, status: '404', error };
}
