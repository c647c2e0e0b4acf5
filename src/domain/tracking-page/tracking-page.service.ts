import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';
import { type Language, languageSourcesOfShipment, resolveLanguage } from '../../i18n/languages.js';
import { shownCarrier } from '../shipments/carrier-of-record.js';
import { messagesFor, requestedLanguage, type TrackingPageMessages } from './tracking-page.messages.js';
import { buildTrackingPageView, type TrackingPageView } from './tracking-page.view.js';

/** References are random base64url tokens; anything else cannot name a page. */
const REFERENCE = /^[A-Za-z0-9_-]{8,64}$/;

/** What the request says about the reader's language: `?lang=` and the browser's Accept-Language. */
export interface PageLanguageRequest {
  lang?: unknown;
  acceptLanguage?: string | string[] | null;
}

/**
 * The page's language: `?lang=`, then the shipment's own language (`additional_info.language`, then its
 * order's), then the browser's Accept-Language, then the recipient's country, then English. An unknown
 * value at any step is skipped. The country is a guess for a reader whose browser states languages we do
 * not have; a request without Accept-Language (a link preview, a script) gets English rather than a guess.
 */
export function pageLanguage(request: PageLanguageRequest, shipmentBody?: unknown): Language {
  const sources = shipmentBody === undefined ? {} : languageSourcesOfShipment(shipmentBody);
  const browserSpoke = typeof request.acceptLanguage === 'string' ? request.acceptLanguage.trim() !== '' : !!request.acceptLanguage?.length;
  return resolveLanguage({
    requested: requestedLanguage(request.lang),
    shipmentLanguage: sources.shipmentLanguage,
    orderLanguage: sources.orderLanguage,
    acceptLanguage: request.acceptLanguage,
    recipientCountry: browserSpoke ? sources.recipientCountry : null,
  });
}

/** The consumer's view of one shipment, found by its unguessable tracking page reference. */
export class TrackingPageService {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
  ) {}

  /** The page for `reference` in the reader's language (see pageLanguage); null when no shipment has that reference. */
  async view(reference: string, request: PageLanguageRequest): Promise<TrackingPageView | null> {
    if (!REFERENCE.test(reference)) return null;
    const shipment = await this.repos.shipments.findByTrackingPageReference(reference);
    if (!shipment) return null;
    const body = JSON.parse(shipment.body);
    const language = pageLanguage(request, body);
    const messages = messagesFor(language);
    const events = await this.repos.events.listForShipment(shipment.id);
    const carrierName =
      shownCarrier(shipment.carrier_id, body, (id) => (id ? (this.carriers.get(id)?.record ?? null) : null))?.name ?? null;
    return buildTrackingPageView({ shipment, events, carrierName, language, messages });
  }

  /** The messages for pages without a shipment (not found): `?lang=`, then Accept-Language, then English. */
  messages(request: PageLanguageRequest): { language: Language; messages: TrackingPageMessages } {
    const language = pageLanguage(request);
    return { language, messages: messagesFor(language) };
  }
}
