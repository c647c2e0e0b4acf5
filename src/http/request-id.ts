import { randomUUID } from 'node:crypto';

/**
 * Request ids in the form of a UUID, made from a random prefix per process and a counter: unique across
 * processes and restarts as random ids are, at the cost of a counter and a string per request (a random UUID
 * per request drew on the random source for each). They identify a request in the logs; nothing relies on
 * their being unguessable.
 */
export function requestIds(): () => string {
  let prefix = '';
  let next = 0;
  const renew = () => {
    // xxxxxxxx-xxxx-4xxx-yxxx- : the version and variant of a random UUID are kept.
    prefix = randomUUID().slice(0, 24);
    next = Math.floor(Math.random() * 2 ** 32);
  };
  renew();
  return () => {
    if (next >= LAST) renew();
    const counter = (next++).toString(16);
    return prefix + (counter.length === 12 ? counter : '000000000000'.slice(counter.length) + counter);
  };
}

/** The last of the 12 hex digits a UUID's final group holds. */
const LAST = 2 ** 48 - 1;
