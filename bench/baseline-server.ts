import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The baseline of a scenario: bare Fastify, no logger, one GET route answering a fixed JSON body.
 * BASELINE_ROUTE is the path, BASELINE_BODY_FILE a file holding the body (as the real endpoint returned it).
 */
const port = Number(process.env.PORT);
const route = process.env.BASELINE_ROUTE ?? '/';
const bodyFile = process.env.BASELINE_BODY_FILE;
if (!Number.isInteger(port) || port <= 0 || !bodyFile) {
  process.stderr.write('set PORT and BASELINE_BODY_FILE\n');
  process.exit(2);
}
const body: unknown = JSON.parse(fs.readFileSync(bodyFile, 'utf8'));

const app = Fastify({ logger: false });
app.get(route, async () => body);
await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
