import { defineConfig } from 'vitest/config';

/**
 * Four projects; `npm test` (and CI) runs all of them, in three passes (package.json: unit; api without isolation,
 * two files at a time; slow and live), `npm run test:fast` the first two, `npm run test:live` the last.
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
  'test/http/body-checks.test.ts',
  'test/http/field-errors.test.ts',
  'test/http/shipment-reply.test.ts',
  'test/http/shipment-serializers.test.ts',
  'test/http/string-lengths.test.ts',
  'test/webhooks/address-guard.test.ts',
];

/** Calls to the carriers' real APIs, each skipped unless its credentials are in the environment (`npm run test:live`). */
const live = ['test/live/**/*.test.ts'];

const shared = { pool: 'forks', testTimeout: 30_000, hookTimeout: 60_000 } as const;

export default defineConfig({
  test: {
    reporters: ['default'],
    // The unit files mostly wait (a carrier's pace, a timeout, a socket); vitest's default of one fork per core but
    // one left only one of them running at a time on a 2-core machine. `npm test` gives the API files two.
    maxWorkers: 4,
    projects: [
      { test: { ...shared, name: 'unit', include: unit } },
      {
        test: {
          ...shared,
          name: 'api',
          include: ['test/**/*.test.ts'],
          exclude: [...unit, ...slow, ...live],
          // Each file builds its own service on its own schema, so a worker's loaded modules can serve the next file:
          // `npm test` runs this project with --no-isolate, since loading the service again for each file was most
          // of its time (6 minutes isolated four at a time, 2.3 without isolation two at a time).
          poolOptions: { forks: { isolate: false } },
        },
      },
      // One file at a time, after the others: these time restarts, kills and slow clients against child processes.
      { test: { ...shared, name: 'slow', include: slow, poolOptions: { forks: { singleFork: true } } } },
      { test: { ...shared, name: 'live', include: live, testTimeout: 180_000 } },
    ],
  },
});
