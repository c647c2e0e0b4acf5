/**
 * What a disk sync per commit costs: single-row commits on a WAL database with `synchronous = NORMAL` and
 * with `FULL` (the service's default), in the same run, on the same disk (a temporary folder under ./data).
 * Run: node --import tsx bench/sqlite-sync.ts [commits]
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const commits = Number(process.argv[2] ?? 2000);
fs.mkdirSync('data', { recursive: true });
const dir = fs.mkdtempSync(path.join('data', 'sync-bench-'));

function perCommitMs(mode: 'NORMAL' | 'FULL'): number {
  const db = new Database(path.join(dir, `${mode}.sqlite`));
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${mode}`);
  db.exec('create table t (id integer primary key, v text)');
  const insert = db.prepare('insert into t (v) values (?)');
  const row = 'x'.repeat(200);
  const start = process.hrtime.bigint();
  for (let i = 0; i < commits; i++) insert.run(row);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  db.close();
  return ms / commits;
}

try {
  const normal = perCommitMs('NORMAL');
  const full = perCommitMs('FULL');
  process.stdout.write(
    `${commits} single-row commits: NORMAL ${normal.toFixed(3)} ms, FULL ${full.toFixed(3)} ms per commit (${(full / normal).toFixed(1)}x)\n`,
  );
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
