import type { CarrierRegistry } from '../../carriers/registry.js';
import type { Repositories } from '../../db/repositories/index.js';
import { messagesFor, resolveLanguage, type TrackingPageMessages } from './tracking-page.messages.js';
import { buildTrackingPageView, type TrackingPageView } from './tracking-page.view.js';

/** References are random base64url tokens; anything else cannot name a page. */
const REFERENCE = /^[A-Za-z0-9_-]{8,64}$/;

/** The consumer's view of one shipment, found by its unguessable tracking page reference. */
export class TrackingPageService {
  constructor(
    private readonly repos: Repositories,
    private readonly carriers: CarrierRegistry,
  ) {}

  /** The page for `reference` in `lang` (English when unknown); null when no shipment has that reference. */
  async view(reference: string, lang: unknown): Promise<TrackingPageView | null> {
    const language = resolveLanguage(lang);
    const messages = messagesFor(language);
    if (!REFERENCE.test(reference)) return null;
    const shipment = await this.repos.shipments.findByTrackingPageReference(reference);
    if (!shipment) return null;
    const events = await this.repos.events.listForShipment(shipment.id);
    const carrierName = shipment.carrier_id ? (this.carriers.get(shipment.carrier_id)?.record.name ?? null) : null;
    return buildTrackingPageView({ shipment, events, carrierName, language, messages });
  }

  /** The messages of a language, for pages without a shipment (not found). */
  messages(lang: unknown): { language: string; messages: TrackingPageMessages } {
    const language = resolveLanguage(lang);
    return { language, messages: messagesFor(language) };
  }
}
