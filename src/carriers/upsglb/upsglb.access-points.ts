import type { CarrierPudoLocation, CarrierPudoQuery } from '../booking.js';
import type { CarrierError, CarrierSettings } from '../carrier.js';
import { redact } from '../sdk/http.js';
import { object, text } from './upsglb.json.js';
import { ACCESS_POINT_SEARCH, LOCATOR_VERSION, locatorRequest, mapLocatorResponse } from './upsglb.locator.js';
import { describeMessages, errorsOf } from './upsglb.mapper.js';
import { saysNotFound } from './upsglb.recovery.js';
import type { UpsApi } from './upsglb.shipping.js';

/** "No locations found" in the Locator's words (an empty answer is no failure). */
function saysNoneNearby(messages: ReadonlyArray<{ message?: string }>): boolean {
  return saysNotFound(messages) || messages.some((m) => /no\s+(?:\w+\s+)?(?:locations?|access\s*points?)\b/i.test(m.message ?? ''));
}

/**
 * UPS Access Points near a point or a postal code, through the Locator with the tracking credentials (the UPS
 * app needs the Locator product). A search is a read: the transport may retry it.
 */
export async function searchAccessPoints(
  api: UpsApi,
  carrierId: string,
  query: CarrierPudoQuery,
  settings: CarrierSettings,
  options: { now: Date; signal?: AbortSignal },
): Promise<{ status: 'ok'; locations: CarrierPudoLocation[] } | CarrierError> {
  const context = api.context(settings, options);
  if ('status' in context) return context;
  const response = await api.send(context, {
    method: 'POST',
    path: `/api/locations/${LOCATOR_VERSION}/search/availabilities/${ACCESS_POINT_SEARCH}?Locale=en_US`,
    body: locatorRequest(query),
    retry: true,
  });
  if ('retryable' in response) return response;
  const body = response.json();
  const say = (message: string) => redact(message, context.secrets);
  if (response.status === 200) {
    // The Locator's own failure shape inside a 200: `Response.Error {ErrorCode, ErrorDescription}`.
    const error = object(object(object(object(body)?.LocatorResponse)?.Response)?.Error);
    const refusal = error ? [{ code: text(error.ErrorCode) ?? undefined, message: text(error.ErrorDescription) ?? undefined }] : [];
    const locations = mapLocatorResponse(body, carrierId, options.now);
    if (refusal.length > 0 && (locations === null || locations.length === 0)) {
      return saysNoneNearby(refusal)
        ? { status: 'ok', locations: [] }
        : { status: 'error', retryable: false, message: say(`UPS refused the search: ${describeMessages(refusal)}`) };
    }
    if (locations === null) {
      return { status: 'error', retryable: true, message: say(`UPS's Locator answer could not be read: ${response.text().slice(0, 200)}`) };
    }
    return { status: 'ok', locations };
  }
  const errors = errorsOf(body);
  if (response.status >= 400 && response.status < 500 && errors.length > 0) {
    if (saysNoneNearby(errors)) return { status: 'ok', locations: [] };
    return {
      status: 'error',
      retryable: false,
      message: say(`UPS refused the search (HTTP ${response.status}): ${describeMessages(errors)}`),
    };
  }
  return {
    status: 'error',
    retryable: response.status >= 500,
    message: say(`UPS's Locator answer could not be read (HTTP ${response.status}): ${response.text().slice(0, 200)}`),
  };
}
