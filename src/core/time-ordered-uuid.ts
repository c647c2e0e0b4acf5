import { v7 } from 'uuid';

/**
 * The UUID of a record that merchants create many of (shipments, orders, returns): version 7, whose first 48 bits
 * are the time in milliseconds, so that a new key lands at the right edge of its unique index instead of on a
 * random page of it, and creates made together write the same few pages. Within one process each is greater than
 * the one before. The time it shows is already in the record's created_date. Never for a value that must not be
 * guessed: the tracking page's reference, tokens and secrets stay random.
 */
export function timeOrderedUuid(): string {
  return v7();
}
