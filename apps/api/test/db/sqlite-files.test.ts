import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, renameSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { buildTestApp, loginOpen, type TestApp } from '../helper.js';
import { VALID_BODIES } from '../hardening/support.js';

const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Found by the seventeenth session's fault probe: with the `-shm` file deleted while the server ran, the next
 * process to open the database (the staff tool, a second instance) made a new one, and the two wrote one WAL
 * without seeing each other: acknowledged quotes lost, references given twice, the file destroyed.
 */
describe('the SQLite WAL files deleted or replaced while the database is open', () => {
  const dirs: string[] = [];
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close().catch(() => undefined);
    t = undefined;
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('should refuse every write, go on reading, say so once, and not checkpoint on closing', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'firm-files-'));
    dirs.push(dataDir);
    const told: string[] = [];
    const db = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }, undefined, {
      onFilesReplaced: (name) => told.push(name),
    });
    await sql`create table t (x integer)`.execute(db.kysely);
    await sql`insert into t values (1)`.execute(db.kysely);
    const file = path.join(dataDir, 'portal.sqlite');
    const before = hash(file);

    unlinkSync(`${file}-shm`);
    await sleep(1_500); // the files are looked at every second
    expect(told).toEqual(['portal.sqlite-shm']);
    const refused: unknown = await sql`insert into t values (2)`
      .execute(db.kysely)
      .catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('SQLITE_FILES_REPLACED');
    expect(isDatabaseUnavailable(refused)).toBe(true);
    await expect(
      db.write((trx) => sql`insert into t values (3)`.execute(trx)),
    ).rejects.toMatchObject({
      code: 'SQLITE_FILES_REPLACED',
    });
    const { rows } = await sql<{ x: number }>`select x from t`.execute(db.kysely);
    expect(rows).toEqual([{ x: 1 }]);
    expect(told).toHaveLength(1);

    await db.close();
    // The WAL was not copied into the database file by a checkpoint at closing.
    expect(hash(file)).toBe(before);
  });

  // Found by the eighteenth session's fault probe: the database file moved away while the server ran; the server
  // went on answering 201 to writes that were then lost.
  it('should refuse every write once the database file itself is moved away, and keep it whole', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'firm-files-'));
    dirs.push(dataDir);
    const told: string[] = [];
    const db = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }, undefined, {
      onFilesReplaced: (name) => told.push(name),
    });
    await sql`create table t (x integer)`.execute(db.kysely);
    await sql`insert into t values (1)`.execute(db.kysely);
    const file = path.join(dataDir, 'portal.sqlite');
    renameSync(file, `${file}.moved`);
    await sleep(1_500);
    expect(told).toEqual(['portal.sqlite']);
    await expect(
      db.write((trx) => sql`insert into t values (2)`.execute(trx)),
    ).rejects.toMatchObject({ code: 'SQLITE_FILES_REPLACED' });
    await db.close();
    // Put back beside its WAL, it opens with every write acknowledged before the move.
    renameSync(`${file}.moved`, file);
    const again = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null });
    const { rows } = await sql<{ x: number }>`select x from t`.execute(again.kysely);
    expect(rows).toEqual([{ x: 1 }]);
    await again.close();
  });

  // Found by the thirty-first session's fault probe: with the data folder deleted while the server ran, the quotes
  // and logins of the next second (until the files were next looked at) were answered 201 and 200, then lost.
  it('should refuse a write at once when the data folder is deleted, without waiting for the next look', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'firm-files-'));
    dirs.push(dataDir);
    const told: string[] = [];
    const db = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }, undefined, {
      onFilesReplaced: (name) => told.push(name),
    });
    await sql`create table t (x integer)`.execute(db.kysely);
    rmSync(dataDir, { recursive: true, force: true });
    await expect(
      db.write((trx) => sql`insert into t values (1)`.execute(trx)),
    ).rejects.toMatchObject({ code: 'SQLITE_FILES_REPLACED' });
    const refused: unknown = await sql`insert into t values (2)`
      .execute(db.kysely)
      .catch((e: unknown) => e);
    expect((refused as { code?: string }).code).toBe('SQLITE_FILES_REPLACED');
    expect(told).toEqual(['portal.sqlite']);
    await db.close();
  });

  it('should answer a quote and a login 503 right after the data folder is deleted', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    rmSync(t.dataDir, { recursive: true, force: true });
    const quote = await t.app.inject({
      method: 'POST',
      url: '/api/demo/warranty',
      headers: { cookie },
      payload: VALID_BODIES['POST /api/:client/warranty'],
    });
    expect(quote.statusCode, quote.body).toBe(503);
    expect(quote.json()).toEqual({
      error: 'The portal cannot reach its database just now. Please try again in a moment.',
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/demo/login',
      payload: VALID_BODIES['POST /api/:client/login'],
    });
    expect(login.statusCode, login.body).toBe(503);
  });

  it('should answer a submission 503 in the API’s words once the -wal file is replaced', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    const post = () =>
      t!.app.inject({
        method: 'POST',
        url: '/api/demo/warranty',
        headers: { cookie },
        payload: VALID_BODIES['POST /api/:client/warranty'],
      });
    expect((await post()).statusCode).toBe(201);
    const wal = path.join(t.dataDir, 'portal.sqlite-wal');
    const copy = readFileSync(wal);
    unlinkSync(wal);
    // Another program puts a file of that name back: not the one this server has open.
    await import('node:fs/promises').then(({ writeFile }) => writeFile(wal, copy));
    await sleep(1_500);
    const refused = await post();
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.json()).toEqual({
      error: 'The portal cannot reach its database just now. Please try again in a moment.',
    });
  });
});
