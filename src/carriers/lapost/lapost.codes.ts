import type { CodeTable } from '../sdk/codes.js';

/**
 * La Poste Suivi v2 event codes → standard event keys.
 *
 * Source: the event code list of the Suivi v2 documentation, https://developer.laposte.fr/products/suivi/2/documentation
 * ("codes événements"), read on 2026-11-23 (codes and their French labels; the portal itself could not be
 * opened from here, so the list was checked against several independent public copies of it; see
 * docs/carriers/lapost.md). The codes are the same for letters, Colissimo and Chronopost.
 *
 * `DI1:AG1` is our composite, not La Poste's: a `DI1` (delivered) after an `AG1` (waiting at a counter or pickup
 * point) is the recipient collecting the parcel. The stored carrier code stays `DI1`.
 */
export const LAPOSTE_CODES: CodeTable = {
  DR1: 'info_received', // Déclaratif réceptionné: the sender announced the item
  PC1: 'picked_up', // Pris en charge
  PC2: 'picked_up', // Pris en charge dans le pays d'expédition
  ET1: 'in_transit', // En cours de traitement
  ET2: 'in_transit', // En cours de traitement dans le pays d'expédition
  ET3: 'in_transit', // En cours de traitement dans le pays de destination
  ET4: 'in_transit', // En cours de traitement dans un pays de transit
  EP1: 'in_transit', // En attente de présentation: waiting to be presented for delivery
  DO1: 'in_customs', // Entrée en douane
  DO2: 'customs_cleared', // Sortie de douane
  DO3: 'delayed', // Retenu en douane: held, the journey stops until customs release it
  ID0: 'in_customs', // Informations douane
  PB1: 'delayed', // Problème en cours: no cause given; "delayed" is the exception key that claims none
  PB2: 'in_transit', // Problème résolu: the journey goes on
  MD2: 'out_for_delivery', // Mis en distribution
  ND1: 'delivery_attempt_failed', // Non distribuable
  AG1: 'available_for_pickup', // En attente d'être retiré au guichet
  RE1: 'returning_to_sender', // Retourné à l'expéditeur
  DI0: 'delivered', // Distribué en lot
  DI1: 'delivered', // Distribué
  'DI1:AG1': 'collected_by_recipient',
  DI2: 'returned_to_sender', // Distribué à l'expéditeur
  DI3: 'delayed', // Retardé
};

/**
 * Every event code the documentation lists, mapped or not. `DR2` (Problème lors de la préparation: a problem
 * while the sender prepares the item) has no standard key that fits and keeps La Poste's label.
 */
export const LAPOSTE_DOCUMENTED_CODES = [
  'DR1',
  'DR2',
  'PC1',
  'PC2',
  'ET1',
  'ET2',
  'ET3',
  'ET4',
  'EP1',
  'DO1',
  'DO2',
  'DO3',
  'ID0',
  'PB1',
  'PB2',
  'MD2',
  'ND1',
  'AG1',
  'RE1',
  'DI0',
  'DI1',
  'DI2',
  'DI3',
] as const;

/** Codes whose label names the country they happen in: their place is that country, from `contextData`. */
export const COUNTRY_OF_CODE: Readonly<Record<string, 'origin' | 'arrival'>> = {
  PC2: 'origin',
  ET2: 'origin',
  ET3: 'arrival',
};
