/**
 * What the operator decides for each carrier, from the environment: `WAYBILL_CARRIER_<ID>_BASE_URL`
 * (where requests go; merchants can never change it) and `WAYBILL_CARRIER_<ID>_<SETTING>` (platform
 * credentials, e.g. `WAYBILL_CARRIER_DHLGLB_API_KEY`, used when a configuration does not set its own).
 */
export class OperatorCarrierSettings {
  private readonly byCarrier = new Map<string, Map<string, string>>();

  constructor(env: Readonly<Record<string, string | undefined>> = {}) {
    for (const [name, value] of Object.entries(env)) {
      const match = /^WAYBILL_CARRIER_([A-Z0-9]{6})_([A-Z0-9_]+)$/.exec(name);
      if (!match || value === undefined || value.trim() === '') continue;
      const id = match[1].toLowerCase();
      const settings = this.byCarrier.get(id) ?? new Map<string, string>();
      settings.set(match[2].toLowerCase(), value.trim());
      this.byCarrier.set(id, settings);
    }
  }

  /** The operator's base URL for a carrier, without a trailing slash; null to use the built-in one. */
  baseUrl(carrierId: string): string | null {
    const url = this.byCarrier.get(carrierId)?.get('base_url');
    return url ? url.replace(/\/+$/, '') : null;
  }

  /**
   * Settings the operator provides for a carrier (lower-case names, `base_url` excluded), restricted to
   * the names the adapter knows.
   */
  defaults(carrierId: string, known: readonly string[]): Record<string, string> {
    const provided: Record<string, string> = {};
    for (const [name, value] of this.byCarrier.get(carrierId) ?? []) {
      if (name !== 'base_url' && known.includes(name)) provided[name] = value;
    }
    return provided;
  }

  /**
   * How long a booking call waits for the carrier: the operator's `WAYBILL_CARRIER_<ID>_TIMEOUT_SECONDS` (1 to 600),
   * else the carrier's default. Past it, a booking counts as an answer lost after sending, so the wait is a
   * deployment's choice, not a merchant's setting.
   */
  bookingTimeoutMs(carrierId: string, defaultSeconds: number): number {
    const configured = Number(this.byCarrier.get(carrierId)?.get('timeout_seconds'));
    return (Number.isFinite(configured) && configured >= 1 && configured <= 600 ? configured : defaultSeconds) * 1000;
  }

  /** Every secret text the operator configured, for redaction. */
  values(): string[] {
    return [...this.byCarrier.values()].flatMap((settings) => [...settings.values()]);
  }
}
