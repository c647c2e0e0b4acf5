/**
 * A signal that aborts after `ms` (a `TimeoutError`, as `AbortSignal.timeout`), or with `parent` when it aborts
 * first. `AbortSignal.any([parent, AbortSignal.timeout(ms)])` may never abort in Node 20 once a garbage
 * collection has run: the timer holds its signal weakly and so does the composite, so a timeout signal that
 * nothing else holds is collected with its timer (nodejs/node#57736), and a wait on the composite outlives its
 * deadline. Here the timer holds the controller until it fires; it does not keep the process alive.
 */
export function deadline(ms: number, parent?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  if (parent?.aborted) {
    controller.abort(parent.reason);
    return controller.signal;
  }
  const onParent = () => {
    clearTimeout(timer);
    controller.abort(parent?.reason);
  };
  const timer = setTimeout(() => {
    parent?.removeEventListener('abort', onParent);
    controller.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError'));
  }, ms);
  timer.unref();
  parent?.addEventListener('abort', onParent, { once: true });
  return controller.signal;
}
