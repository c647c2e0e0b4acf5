/**
 * Whether a promise has settled (resolved or failed) after several turns of the event loop: the query layer and
 * the request pipeline await a few promises on their way, so one turn would say "not yet" too early.
 */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  return done;
}
