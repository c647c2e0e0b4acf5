/**
 * What the sandbox carrier's proof of delivery costs (`node --import tsx bench/sandbox-pod.ts`), in µs of CPU an
 * image: for tracking numbers never asked for before, in blocks of 3,000 in a row (an image is kept once drawn, and
 * the 8,960 possible images come back more often the more numbers were asked for), beside one drawn anew each time.
 */
import { createHash } from 'node:crypto';
import { drawProofOfDelivery, proofOfDeliveryPng } from '../src/carriers/sandbox/sandbox.pod.js';

const BLOCK = 3_000;
const BLOCKS = 6;

const cpuOf = (work: () => void): number => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / BLOCK;
};

const anew = cpuOf(() => {
  for (let i = 0; i < BLOCK; i++) drawProofOfDelivery(createHash('sha256').update(`ANEW${i}`).digest());
});
console.log(`drawn anew: ${anew.toFixed(1)} µs an image`);
let next = 0;
for (let block = 0; block < BLOCKS; block++) {
  const from = next;
  const used = cpuOf(() => {
    for (let i = 0; i < BLOCK; i++) proofOfDeliveryPng(`JJD${next++}`);
  });
  console.log(`numbers ${from.toLocaleString('en')}–${next.toLocaleString('en')}: ${used.toFixed(1)} µs an image`);
}
