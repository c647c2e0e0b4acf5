import fs from 'node:fs';
import Fastify from 'fastify';

/**
 * The floor of the `mixed` scenario: bare Fastify, no logger, the four routes of the merchants' mix answering the
 * bodies the service answered for each kind (captured before the run), parsing JSON request bodies as the service
 * does. What the same requests and the same encoded answers cost with none of Waybill's own work.
 * PORT, and FLOOR_BODIES_FILE: a JSON object with `details`, `create`, `list` and `update` bodies.
 */
const port = Number(process.env.PORT);
const bodiesFile = process.env.FLOOR_BODIES_FILE;
if (!Number.isInteger(port) || port <= 0 || !bodiesFile) {
  process.stderr.write('set PORT and FLOOR_BODIES_FILE\n');
  process.exit(2);
}
const bodies = JSON.parse(fs.readFileSync(bodiesFile, 'utf8')) as Record<'details' | 'create' | 'list' | 'update', unknown>;

const app = Fastify({ logger: false });
app.get('/v5-2-0/shipment/details/', async () => bodies.details);
app.post('/v5/shipment/', async () => bodies.create);
app.get('/v5/shipment/list/', async () => bodies.list);
app.post('/v5-2-0/shipment/update/', async () => bodies.update);
await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
