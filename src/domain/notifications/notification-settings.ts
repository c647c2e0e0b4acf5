import type { TObject } from '@sinclair/typebox';
import { MASK, maskSettings, mergeSettings } from '../../carriers/sdk/settings.js';
import type { Clock } from '../../clock.js';
import type { NotificationConfig } from '../../config.js';
import { type Channel, DEFAULT_TRIGGERS, type Trigger } from '../../core/notification-triggers.js';
import type { Repositories } from '../../db/repositories/index.js';
import { isLanguage, type Language } from '../../i18n/languages.js';
import type { Secrets } from '../../secrets.js';
import { FieldErrorCollector } from '../errors.js';
import { ShortCache } from './short-cache.js';
import { smsProvider } from './sms/sms-provider.js';
import { checkProviderSettings } from './sms/sms-settings.js';

/** What a merchant chose: which triggers go out on which channel, from whom, in which language by default. */
export interface NotificationSettings {
  email: { enabled: boolean; triggers: Trigger[]; sender_name: string | null; sender_email: string | null; reply_to: string | null };
  sms: { enabled: boolean; triggers: Trigger[]; provider: string | null; settings: Record<string, unknown> };
  default_language: Language;
  /** Changes whose event is older than this send nothing (late history). */
  max_event_age_hours: number;
}

/** As stored: the SMS provider's settings sealed, like carrier credentials. */
interface StoredSettings extends Omit<NotificationSettings, 'sms'> {
  sms: Omit<NotificationSettings['sms'], 'settings'> & { settings_sealed: string | null };
}

export type SettingsInput = Omit<NotificationSettings, 'sms'> & {
  sms: Omit<NotificationSettings['sms'], 'settings'> & { settings?: Record<string, unknown> | null };
};

export const DEFAULT_MAX_EVENT_AGE_HOURS = 48;

/**
 * Each account's notification settings. An account that never saved any gets the defaults: e-mail for the
 * default triggers as soon as the operator has configured SMTP, no SMS (it needs the merchant's provider).
 */
export class NotificationSettingsService {
  /** Settings read per transaction: a tracking batch changes many shipments of few accounts. */
  private readonly byTransaction = new WeakMap<Repositories, Map<number, NotificationSettings>>();
  /** Settings read by senders outside a transaction (see ShortCache). */
  private readonly recent = new ShortCache<NotificationSettings>();

  constructor(
    private readonly repos: Repositories,
    private readonly secrets: Secrets,
    private readonly operator: NotificationConfig,
    private readonly clock: Clock,
  ) {}

  /** Whether the operator configured SMTP (no e-mail can go out otherwise). */
  get emailAvailable(): boolean {
    return this.operator.smtpUrl !== null && this.operator.smtpFrom !== null;
  }

  defaults(): NotificationSettings {
    return {
      email: { enabled: this.emailAvailable, triggers: [...DEFAULT_TRIGGERS], sender_name: null, sender_email: null, reply_to: null },
      sms: { enabled: false, triggers: [...DEFAULT_TRIGGERS], provider: null, settings: {} },
      default_language: 'en',
      max_event_age_hours: DEFAULT_MAX_EVENT_AGE_HOURS,
    };
  }

  /** The settings in force, SMS secrets in the clear (for sending; never answered). */
  async of(accountId: number, repos: Repositories = this.repos): Promise<NotificationSettings> {
    let cache: Map<number, NotificationSettings> | undefined;
    if (repos.db.isTransaction) {
      cache = this.byTransaction.get(repos);
      if (!cache) {
        cache = new Map();
        this.byTransaction.set(repos, cache);
      }
      const hit = cache.get(accountId);
      if (hit) return hit;
    }
    const row = await repos.notifications.settingsOf(accountId);
    const settings = row ? this.unseal(JSON.parse(row.settings) as StoredSettings) : this.defaults();
    cache?.set(accountId, settings);
    return settings;
  }

  /** The settings in force as a sender reads them: at most a second old (a change in this process counts at once). */
  ofRecent(accountId: number): Promise<NotificationSettings> {
    return this.recent.get(`${accountId}:`, () => this.of(accountId));
  }

  /** The settings as merchants see them: secrets masked, and whether the operator allows e-mail at all. */
  async shown(accountId: number) {
    const settings = await this.of(accountId);
    const provider = settings.sms.provider ? smsProvider(settings.sms.provider) : undefined;
    return {
      ...settings,
      email: { ...settings.email, available: this.emailAvailable },
      sms: { ...settings.sms, settings: provider ? maskSettings(provider.settingsSchema as TObject, settings.sms.settings) : {} },
    };
  }

  /**
   * Replaces the settings. The SMS provider's settings merge into what is stored (a secret left out, or sent
   * back masked, keeps its value; null removes one), then are checked against the provider's schema.
   */
  async put(accountId: number, input: SettingsInput) {
    const current = await this.of(accountId);
    const errors = new FieldErrorCollector();
    if (!isLanguage(input.default_language)) errors.add(['default_language'], 'Must be one of: en, de, fr, nl, es, it.');
    if (input.email.enabled && !this.emailAvailable) {
      errors.add(['email', 'enabled'], 'E-mail is not available: the operator has not configured an SMTP server.');
    }
    const providerId = input.sms.provider;
    const provider = providerId ? smsProvider(providerId) : undefined;
    if (providerId && !provider) errors.add(['sms', 'provider'], 'Unknown SMS provider. Known: twilio.');
    if (input.sms.enabled && !providerId) errors.add(['sms', 'provider'], 'Required to send SMS.');
    let smsSettings: Record<string, unknown> = {};
    if (provider) {
      const patch = Object.fromEntries(Object.entries(input.sms.settings ?? {}).filter(([, value]) => value !== MASK));
      smsSettings = mergeSettings(current.sms.provider === providerId ? current.sms.settings : {}, patch);
      for (const problem of checkProviderSettings(provider, smsSettings)) errors.add(['sms', ...problem.path], problem.message);
    }
    errors.throwIfAny();
    const settings: NotificationSettings = {
      email: { ...input.email, triggers: unique(input.email.triggers) },
      sms: { ...input.sms, triggers: unique(input.sms.triggers), settings: smsSettings },
      default_language: input.default_language,
      max_event_age_hours: input.max_event_age_hours,
    };
    await this.repos.notifications.putSettings(accountId, JSON.stringify(this.seal(settings)), this.clock.now().toISOString());
    this.recent.drop(`${accountId}:`);
    return this.shown(accountId);
  }

  /** The channels a trigger goes out on for these settings. */
  channelsFor(settings: NotificationSettings, trigger: Trigger): Channel[] {
    const channels: Channel[] = [];
    if (settings.email.enabled && this.emailAvailable && settings.email.triggers.includes(trigger)) channels.push('email');
    if (settings.sms.enabled && settings.sms.provider && settings.sms.triggers.includes(trigger)) channels.push('sms');
    return channels;
  }

  private seal(settings: NotificationSettings): StoredSettings {
    const { settings: plain, ...sms } = settings.sms;
    const sealed = Object.keys(plain).length > 0 ? this.secrets.encrypt(JSON.stringify(plain)) : null;
    return { ...settings, sms: { ...sms, settings_sealed: sealed } };
  }

  private unseal(stored: StoredSettings): NotificationSettings {
    const { settings_sealed, ...sms } = stored.sms;
    const settings = settings_sealed ? (JSON.parse(this.secrets.decrypt(settings_sealed)) as Record<string, unknown>) : {};
    return { ...this.defaults(), ...stored, sms: { ...sms, settings } };
  }
}

function unique<T>(values: readonly T[]): T[] {
  return [...new Set(values)];
}
