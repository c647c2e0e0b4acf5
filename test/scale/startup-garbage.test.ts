import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

describe('the garbage of starting up', () => {
  it('is collected before the service serves: objects built by name share their shapes again', () => {
    const output = execFileSync(
      process.execPath,
      ['--allow-natives-syntax', '--import', 'tsx', path.join(root, 'test/scale/fixtures/startup-garbage-child.ts')],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    const shapes = JSON.parse(output.trim().split('\n').at(-1) ?? '{}');
    // A full list gives every such object shapes of its own; a full collection empties it of garbage.
    expect(shapes).toEqual({ filled: false, collected: true, beforeStart: false, afterStart: true });
  });
});
