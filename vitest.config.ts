import { defineConfig } from 'vitest/config';

/**
 * Four projects; `npm test` (and CI) runs all of them, `npm run test:fast` the first two, `npm run test:live` the last.
 * - unit: pure code, no service built (mappers, parsers, renderers, the database layer's helpers).
 * - api: the service built in-process and driven through fastify.inject(), on its own database schema.
 * - slow: real child processes, kills, restarts, slow clients and browsers (crash and shutdown runs, connection
 *   limits, serve --workers, several processes on one database, the CLI's backup and its clients with no service
 *   to reach, Chromium).
 * - live: the carriers' real APIs, only for carriers whose credentials are in the environment (skipped otherwise).
 */
const slow = [
  'test/reliability/**/*.test.ts',
  'test/scale/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'test/security/limits.test.ts',
  'test/cli/backup.test.ts',
  'test/cli/unreachable-service.test.ts',
  'test/http/https.test.ts',
  'test/webhooks/webhooks.restart.test.ts',
  'test/notifications/notifications.restart.test.ts',
];

const unit = [
  'test/carriers/**/*.test.ts',
  'test/domain/**/*.test.ts',
  'test/db/prepared-query.test.ts',
  'test/documents/label-*.test.ts',
  'test/documents/signed-url.test.ts',
  'test/pudo/geo.test.ts',
  'test/pudo/pudo-dataset.test.ts',
  'test/pudo/pudo-search.test.ts',
  'test/http/field-errors.test.ts',
  'test/http/shipment-reply.test.ts',
  'test/webhooks/address-guard.test.ts',
];

/** Calls to the carriers' real APIs, each skipped unless its credentials are in the environment (`npm run test:live`). */
const live = ['test/live/**/*.test.ts'];

const shared = { pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    reporters: ['default'],
    projects: [
      { test: { ...shared, name: 'unit', include: unit } },
      { test: { ...shared, name: 'api', include: ['test/**/*.test.ts'], exclude: [...unit, ...slow, ...live] } },
      { test: { ...shared, name: 'slow', include: slow } },
      { test: { ...shared, name: 'live', include: live, testTimeout: 180_000 } },
    ],
  },
});
