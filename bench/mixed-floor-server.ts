import fs from 'node:fs';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * The floor of the `mixed` scenario: bare Fastify, no logger, the four routes of the merchants' mix answering the
 * bytes the service answered for each kind (captured before the run, kept encoded as the service keeps its
 * renderings: a JSON object sent as an object would be serialized anew for every answer, 117 KB for a list page,
 * work the service does not do), parsing JSON request bodies as the service does. What the same requests and the
 * same encoded answers cost with none of Waybill's own work.
 * PORT, and FLOOR_BODIES_FILE: a JSON object with the `details`, `create`, `list` and `update` answers as text.
 */
const port = Number(process.env.PORT);
const bodiesFile = process.env.FLOOR_BODIES_FILE;
if (!Number.isInteger(port) || port <= 0 || !bodiesFile) {
  process.stderr.write('set PORT and FLOOR_BODIES_FILE\n');
  process.exit(2);
}
const texts = JSON.parse(fs.readFileSync(bodiesFile, 'utf8')) as Record<'details' | 'create' | 'list' | 'update', string>;
const JSON_TYPE = 'application/json; charset=utf-8';
const answer = (text: string) => {
  const bytes = Buffer.from(text);
  return (_request: FastifyRequest, reply: FastifyReply) => reply.type(JSON_TYPE).send(bytes);
};

const app = Fastify({ logger: false });
app.get('/v5-2-0/shipment/details/', answer(texts.details));
app.post('/v5/shipment/', answer(texts.create));
app.get('/v5/shipment/list/', answer(texts.list));
app.post('/v5-2-0/shipment/update/', answer(texts.update));
await app.listen({ port, host: '127.0.0.1' });

const stop = async () => {
  await app.close();
  process.exit(0);
};
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
