import type { Language } from '../../i18n/languages.js';

/** A reason a consumer can give for returning an item: its code (stored on the return) and its text. */
export interface ReturnReason {
  code: string;
  /** Shown in a language without a translation. */
  label: string;
  translations: Partial<Record<Language, string>>;
}

/** The reasons of a policy never saved: the ones every returns product offers, in the six languages. */
export const DEFAULT_RETURN_REASONS: readonly ReturnReason[] = [
  {
    code: 'too_small',
    label: 'Too small',
    translations: { en: 'Too small', de: 'Zu klein', fr: 'Trop petit', nl: 'Te klein', es: 'Demasiado pequeño', it: 'Troppo piccolo' },
  },
  {
    code: 'too_large',
    label: 'Too large',
    translations: { en: 'Too large', de: 'Zu groß', fr: 'Trop grand', nl: 'Te groot', es: 'Demasiado grande', it: 'Troppo grande' },
  },
  {
    code: 'damaged',
    label: 'Arrived damaged',
    translations: {
      en: 'Arrived damaged',
      de: 'Beschädigt angekommen',
      fr: 'Arrivé endommagé',
      nl: 'Beschadigd aangekomen',
      es: 'Llegó dañado',
      it: 'Arrivato danneggiato',
    },
  },
  {
    code: 'not_as_described',
    label: 'Not as described',
    translations: {
      en: 'Not as described',
      de: 'Entspricht nicht der Beschreibung',
      fr: 'Non conforme à la description',
      nl: 'Niet zoals beschreven',
      es: 'No es como se describe',
      it: 'Non conforme alla descrizione',
    },
  },
  {
    code: 'wrong_item',
    label: 'Wrong item received',
    translations: {
      en: 'Wrong item received',
      de: 'Falschen Artikel erhalten',
      fr: 'Mauvais article reçu',
      nl: 'Verkeerd artikel ontvangen',
      es: 'Artículo equivocado',
      it: 'Articolo sbagliato',
    },
  },
  {
    code: 'changed_mind',
    label: 'Changed my mind',
    translations: {
      en: 'Changed my mind',
      de: 'Nicht mehr gewünscht',
      fr: "J'ai changé d'avis",
      nl: 'Van gedachten veranderd',
      es: 'He cambiado de opinión',
      it: 'Ho cambiato idea',
    },
  },
  {
    code: 'other',
    label: 'Other',
    translations: { en: 'Other', de: 'Sonstiges', fr: 'Autre', nl: 'Anders', es: 'Otro', it: 'Altro' },
  },
];

/** A reason's text in a language: its translation, else its label. */
export function reasonText(reason: ReturnReason, language: Language): string {
  return reason.translations[language] ?? reason.label;
}
