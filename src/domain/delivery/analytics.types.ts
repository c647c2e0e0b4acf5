/** What delivery analytics answer (docs/delivery-intelligence.md, "Analytics"). */

export type AnalyticsGroup = 'carrier' | 'lane' | 'destination_country' | 'week';

export interface AnalyticsQuery {
  /** First and last acceptance date of the period, `YYYY-MM-DD`, inclusive. */
  from: string;
  to: string;
  /** One dimension for the API; the console also asks for two (week and carrier) at once. */
  groupBy: AnalyticsGroup[];
  carrierReference?: string;
  shippingService?: string;
}

export interface TransitSummary {
  median: number | null;
  p90: number | null;
  mean: number | null;
}

export interface AnalyticsRow {
  /** One value per `groupBy` dimension, in its order. */
  key: string[];
  shipments: number;
  accepted: number;
  first_attempts: number;
  delivered: number;
  /** In [0, 1], or null when the denominator is 0. */
  first_attempt_success_rate: number | null;
  on_time_rate: number | null;
  transit_working_days: TransitSummary;
  exceptions: number;
  returned_to_sender: number;
  /** Shipments by transit working days and timing against the original window, for the histograms. */
  transits: Array<{ transit: number; early: number; on_time: number; late: number; none: number }>;
}
