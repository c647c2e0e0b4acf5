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

  /** Every secret text the operator configured, for redaction. */
  values(): string[] {
    return [...this.byCarrier.values()].flatMap((settings) => [...settings.values()]);
  }
}
