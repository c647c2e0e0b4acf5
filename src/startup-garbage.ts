import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Collects the garbage of starting up (one full collection) before the service takes requests.
 *
 * Why: V8 keeps, for the shape of an empty object `{}`, the list of shapes reached by adding one property to it, one
 * per property name, and no more than 1,536 of them. Starting up fills that list: the schema validators, serializers
 * and data tables compiled at start create objects under hundreds of generated names (`_errs63`, `valid39`,
 * `__fjs_root_86`, holiday rules) that are garbage once compiled, and only a full collection takes their entries off
 * the list. Until one runs, every object built from `{}` by adding properties by name (a request's headers, a row
 * about to be written, a rendering's parts) whose first name is not already listed gets shapes of its own, made anew
 * at each property: in the service, 38 such additions a write at about 5,000 instructions each, 10% of a write's
 * instructions, and property reads on those objects that inline caches cannot serve (docs/performance.md). Under
 * load a full collection comes within half a minute; under little load it may not come for hours.
 *
 * The collection is the one `global.gc()` runs, taken from a context of its own so that no `gc` is left on this
 * one; the flag that exposes it is set for that moment only. It takes about 50 ms, once (83 MB of heap after start).
 * Where the flag cannot be set, nothing is done: the service is as it would be without this.
 */
export function collectStartupGarbage(): void {
  const collect = fullCollection();
  collect?.();
}

function fullCollection(): (() => void) | null {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') return exposed;
  try {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as unknown;
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  } finally {
    v8.setFlagsFromString('--no-expose-gc');
  }
}
