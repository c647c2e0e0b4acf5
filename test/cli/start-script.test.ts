import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const startScript: string = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.start;
const words = startScript.trim().split(/\s+/);
/** The node flags of the start script, before `dist/main.js`. */
const startFlags = words.slice(1, words.indexOf('dist/main.js'));

/** Threads of a node process started with `flags`, once it has run some code (V8's workers start with the process). */
function threadsWith(flags: string[]): number {
  const result = spawnSync(process.execPath, [...flags, '-e', "console.log(require('fs').readdirSync('/proc/self/task').length)"], {
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(0);
  return Number(result.stdout.trim());
}

describe('npm start', () => {
  it('runs the service with node and its flags, then dist/main.js start', () => {
    expect(words[0]).toBe('node');
    expect(words.slice(-2)).toEqual(['dist/main.js', 'start']);
  });

  it('gives V8 one background thread (docs/operations.md): Node would start four, on a host of any size', () => {
    expect(startFlags).toContain('--v8-pool-size=1');
  });

  it('lets the old generation double before a full collection (docs/decisions.md), a flag node accepts', () => {
    expect(startFlags).toContain('--heap-growing-percent=100');
    const result = spawnSync(process.execPath, [...startFlags, '-e', '0'], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.runIf(process.platform === 'linux')('starts node with three V8 threads fewer than its default', () => {
    expect(threadsWith([]) - threadsWith(startFlags)).toBe(3);
  });
});
