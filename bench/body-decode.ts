/**
 * What reading a request body's bytes as text costs (`node --import tsx bench/body-decode.ts`): the create body of
 * the `mixed` scenario (1.8 KB, with two characters outside ASCII) and the same body in ASCII alone, each decoded
 * as UTF-8 (what the JSON body parser does, src/http/body-parser.ts: the baseline) and as a parser could read it
 * instead (`isAscii`, then Latin-1 for ASCII, UTF-8 otherwise; tried and not kept, docs/performance.md). Rounds
 * alternate between the two ways; the median of `BODY_DECODE_ROUNDS` (9) is printed, in ns per body.
 */
import { isAscii } from 'node:buffer';
import { median, shipmentBody } from './fixtures.js';

const rounds = Number(process.env.BODY_DECODE_ROUNDS ?? 9);
const perRound = 100_000;
const mixedText = JSON.stringify(shipmentBody('bd', 1));
const bodies = {
  'the mixed create body': Buffer.from(mixedText),
  'the same body in ASCII': Buffer.from(mixedText.replace(/[\u0080-\uffff]/g, 'e')),
};
const ways = {
  utf8: (body: Buffer) => body.toString('utf8'),
  latin1: (body: Buffer) => (isAscii(body) ? body.toString('latin1') : body.toString('utf8')),
};

for (const [name, body] of Object.entries(bodies)) {
  if (ways.latin1(body) !== ways.utf8(body)) throw new Error(`${name}: the two ways read different text`);
  const times: Record<keyof typeof ways, number[]> = { utf8: [], latin1: [] };
  let length = 0;
  for (let round = 0; round < rounds; round++) {
    for (const way of Object.keys(ways) as Array<keyof typeof ways>) {
      const read = ways[way];
      const started = process.hrtime.bigint();
      for (let i = 0; i < perRound; i++) length += read(body).length;
      times[way].push(Number(process.hrtime.bigint() - started) / perRound);
    }
  }
  const utf8 = median(times.utf8);
  const latin1 = median(times.latin1);
  console.log(
    `${name} (${body.length} bytes, ASCII: ${isAscii(body)}): UTF-8 ${utf8.toFixed(0)} ns, ASCII as Latin-1 ${latin1.toFixed(0)} ns (×${(latin1 / utf8).toFixed(2)}) [${length}]`,
  );
}
