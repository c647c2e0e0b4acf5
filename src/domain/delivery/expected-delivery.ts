type Json = Record<string, any>;

export interface ShownWindow {
  from: string | null;
  to: string | null;
}

function windowOf(value: Json | null | undefined): ShownWindow | null {
  if (!value || (!value.from && !value.to)) return null;
  return { from: value.from ?? null, to: value.to ?? null };
}

/** Phases after which a predicted window is history, not an expectation. */
const ENDED = new Set(['delivered', 'return_to_sender']);

/**
 * The `expected_delivery` a shipment shows: the merchant's own window when they set one, else the carrier's,
 * else Waybill's predicted window (dates) until the parcel is delivered or on its way back. Null when none is known.
 */
export function shownExpectedDelivery(body: Json, phaseKey: string | null): ShownWindow | null {
  return (
    windowOf(body.expected_delivery) ??
    windowOf(body.carrier_expected_delivery) ??
    (phaseKey !== null && ENDED.has(phaseKey) ? null : windowOf(body.delivery_prediction))
  );
}
