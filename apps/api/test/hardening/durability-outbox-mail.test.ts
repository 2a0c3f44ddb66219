import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/services/mailer.js';
import { buildTestApp, databases, loginMagic, silentLogger, type TestApp } from '../helper.js';

const emlFiles = async (dir: string) =>
  (await readdir(dir)).filter((name) => name.endsWith('.eml'));

describe('the outbox folder holds each mail once', () => {
  it('should write the same outbox row twice (a retry after a kill) as one file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'firm-mail-once-'));
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Portal <portal@advisory.example>',
      outboxDir,
      uploadsDir: path.join(dir, 'uploads'),
      log: silentLogger,
    });
    try {
      const row = {
        id: '0195f0a2-7c00-7abc-8def-0123456789ab',
        createdAt: '2026-03-02T09:00:00.000Z',
      };
      const mail = {
        to: 'team@advisory.example',
        subject: 'Due diligence request',
        text: 'Hello.',
      };
      await mailer.send(mail, row);
      await mailer.send(mail, row);
      await mailer.flush?.();
      const names = await readdir(outboxDir);
      expect(names).toEqual([`2026-03-02T09-00-00-000Z-${row.id}.eml`]);
      const message = await readFile(path.join(outboxDir, names[0] ?? ''), 'utf8');
      // The Message-ID is the row's too: a reader (or an SMTP relay) can tell a re-sent copy.
      expect(message).toMatch(new RegExp(`^Message-ID: <${row.id}@advisory\\.example>\\r?$`, 'm'));
    } finally {
      mailer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe.each(databases)('a mail re-sent after a kill ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should leave one file for a row delivered, not marked sent, and delivered again', async () => {
    await loginMagic(t); // one login mail, written by the outbox worker
    const outboxDir = path.join(t.dataDir, 'outbox');
    const before = await emlFiles(outboxDir);
    expect(before).toHaveLength(1);
    // As if the process had been killed after writing the mail and before marking its row sent: the row
    // comes due again once its lease runs out, and is delivered again.
    await t.app.db.kysely
      .updateTable('outbox')
      .set({ sent_at: null, locked_until: null })
      .execute();
    expect(await t.app.outbox.runOnce()).toBe(1);
    expect(await emlFiles(outboxDir)).toEqual(before);
    expect((await readdir(outboxDir)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
