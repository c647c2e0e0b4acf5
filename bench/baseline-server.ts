import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The baseline of a scenario: bare Fastify, no logger, one route answering a fixed JSON body.
 * BASELINE_ROUTE is the path, BASELINE_BODY_FILE a file holding the body (as the real endpoint returned it),
 * BASELINE_METHOD the method (GET by default; a POST route parses the JSON or form request body and ignores it).
 */
const port = Number(process.env.PORT);
const route = process.env.BASELINE_ROUTE ?? '/';
const bodyFile = process.env.BASELINE_BODY_FILE;
const method = (process.env.BASELINE_METHOD ?? 'GET').toUpperCase();
if (!Number.isInteger(port) || port <= 0 || !bodyFile || (method !== 'GET' && method !== 'POST')) {
  process.stderr.write('set PORT and BASELINE_BODY_FILE; BASELINE_METHOD is GET or POST\n');
  process.exit(2);
}
const body: unknown = JSON.parse(fs.readFileSync(bodyFile, 'utf8'));

const app = Fastify({ logger: false });
// Form bodies (the token endpoint's) are parsed too, as the service parses them.
app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, text, done) => {
  done(null, Object.fromEntries(new URLSearchParams(text as string)));
});
app.route({ method, url: route, handler: async () => body });
// Readiness is checked with a GET; a POST baseline answers it on the same path.
if (method !== 'GET') app.get(route, async () => body);
await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
