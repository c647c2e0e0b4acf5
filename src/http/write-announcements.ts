import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/** Methods that never write. */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Announces every request that may write (any method but GET, HEAD and OPTIONS) from its arrival until its
 * answer ends, whether sent or cut off: the embedded database's commit waits a moment for writes announced and
 * not yet made, so that several share one commit and one sync (src/db/sqlite-group-commit.ts).
 */
export function announceWrites(server: Server, announce: () => () => void): void {
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    if (READS.has(request.method as string)) return;
    response.once('close', announce());
  });
}
