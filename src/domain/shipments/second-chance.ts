/** An entry of a map kept in the order it went in, marked when answered since it was kept or last spared. */
export interface Spareable {
  used: boolean;
}

/**
 * Takes out and returns the oldest entry not answered since it was kept or last spared; each answered entry met on
 * the way is spared once: its mark cleared, it goes to the back. A second chance, which approximates least recently
 * used without moving an entry on every answer. The walk ends at the latest when it meets a spared entry again;
 * undefined only for an empty map.
 */
export function takeOldestUnused<K, V extends Spareable>(entries: Map<K, V>): V | undefined {
  for (const [key, entry] of entries) {
    entries.delete(key);
    if (!entry.used) return entry;
    entry.used = false;
    entries.set(key, entry);
  }
  return undefined;
}
