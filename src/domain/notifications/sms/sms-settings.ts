import type { TObject } from '@sinclair/typebox';
import { checkSettings, type SettingError } from '../../../carriers/sdk/settings.js';
import type { SmsProvider } from './sms-provider.js';

/**
 * A merchant's SMS provider settings checked against the provider's schema, with the carriers' rules and
 * messages (paths start with `settings`; secrets never quoted back). A conditional requirement reports the
 * missing field itself, not the condition around it.
 */
export function checkProviderSettings(provider: SmsProvider<unknown>, settings: Record<string, unknown>): SettingError[] {
  return checkSettings(provider.settingsSchema as TObject, settings).filter(
    (problem) => !(problem.path.length === 1 && /"then"|"else"/.test(problem.message)),
  );
}
