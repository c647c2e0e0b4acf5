import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupSqlite } from '../../src/cli/backup.commands.js';
import { loadConfig } from '../../src/config.js';
import { createContext } from '../../src/context.js';
import { buildApp } from '../../src/http/app.js';
import { createTestApp, issueToken, type TestAccount, type TestApp } from '../helpers/app.js';

const root = path.resolve(import.meta.dirname, '../..');

function waybill(args: string[], env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('waybill backup <file> (SQLite online backup)', () => {
  let t: TestApp;
  let acct: TestAccount;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'waybill-backup-'));
  beforeAll(async () => {
    // The embedded database, whichever database the other suites run on.
    t = await createTestApp({ env: { DATABASE_URL: '' } });
    acct = await t.account();
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies the database while it is written to, and the copy serves what was committed before', async () => {
    const call = t.as(acct);
    for (let i = 0; i < 20; i++) expect((await call('POST', '/v5/shipment/', { shipment_id: `BK-${i}` })).statusCode).toBe(200);
    // Writes keep going during the backup.
    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) {
        const res = await call('POST', '/v5/shipment/', { shipment_id: `DURING-${written}` });
        expect(res.statusCode).toBe(200);
        written++;
      }
    })();
    while (written < 3) await new Promise((r) => setTimeout(r, 5));
    const target = path.join(dir, 'copy.sqlite');
    const result = await backupSqlite(t.config.dataDir, target);
    writing = false;
    await writer;
    expect(result.file).toBe(target);
    expect(result.pages).toBeGreaterThan(0);
    expect(fs.existsSync(`${target}.partial`)).toBe(false);

    // Restore: the backup as the database of a new data dir, with the same secret key, served again.
    const restoredDir = path.join(dir, 'restored');
    fs.mkdirSync(restoredDir);
    fs.copyFileSync(target, path.join(restoredDir, 'waybill.sqlite'));
    fs.copyFileSync(path.join(t.config.dataDir, 'secret.key'), path.join(restoredDir, 'secret.key'));
    const config = loadConfig({ WAYBILL_DATA_DIR: restoredDir, WAYBILL_ADMIN_TOKEN: t.adminToken, LOG_LEVEL: 'silent' });
    const context = await createContext(config, { clock: t.clock });
    const app = await buildApp(context, { logger: false });
    try {
      const token = await issueToken(app, acct.clientId, acct.clientSecret);
      const list = async (shipmentId: string) =>
        app.inject({
          method: 'GET',
          url: '/v5-2-0/shipment/details/',
          query: { shipment_id: shipmentId },
          headers: { authorization: `Bearer ${token}` },
        });
      for (let i = 0; i < 20; i++) expect((await list(`BK-${i}`)).statusCode).toBe(200);
    } finally {
      await app.close();
      await context.close();
    }
  });

  it('as a command: writes the file and says what else to keep; never overwrites; points PostgreSQL to pg_dump', () => {
    const target = path.join(dir, 'cli.sqlite');
    const env = { WAYBILL_DATA_DIR: t.config.dataDir, DATABASE_URL: '', WAYBILL_SECRET_KEY: '' };
    const first = waybill(['backup', target], env);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain(`backup written: ${target}`);
    expect(first.stdout).toContain(
      `also keep ${path.join(t.config.dataDir, 'secret.key')}: the key is not in the database (documents are)`,
    );
    expect(first.stdout).not.toContain(path.join(t.config.dataDir, 'files'));
    expect(fs.statSync(target).size).toBeGreaterThan(0);

    const again = waybill(['backup', target], env);
    expect(again.status).toBe(1);
    expect(again.stderr).toContain(`${target} exists; choose a new file`);

    const empty = waybill(['backup', path.join(dir, 'none.sqlite')], { ...env, WAYBILL_DATA_DIR: path.join(dir, 'nothing-here') });
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain('no database at');

    const postgres = waybill(['backup', path.join(dir, 'pg.sqlite')], { ...env, DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' });
    expect(postgres.status).toBe(1);
    expect(postgres.stderr).toContain('pg_dump --format=custom');
  }, 120_000);
});
