import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Mailer from '../../src/services/mailer.js';
import { silentLogger } from '../helper.js';
import { type FsyncRecorder, recordFsyncs } from '../fsync-recorder.js';

// Found by the twenty-ninth session's probe: without SMTP the first mail made `DATA_DIR/outbox`, and `flush`
// fsync-ed the folder's entries before the rows were marked sent, never the folder's own name in the data folder,
// so a power cut could take the folder with mails marked sent.
describe('the outbox folder (no SMTP) is durable before its mails are marked sent', () => {
  let scratch: string;
  let fsyncs: FsyncRecorder;
  let createMailer: typeof Mailer.createMailer;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-outbox-fsync-'));
    fsyncs = recordFsyncs();
    ({ createMailer } = await import('../../src/services/mailer.js'));
  });
  afterAll(async () => {
    fsyncs.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('should fsync the data folder once it has made the outbox folder, and not again', async () => {
    const dataDir = path.join(scratch, 'data');
    await mkdir(dataDir);
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Client Hub <hub@firm.example>',
      outboxDir: path.join(dataDir, 'outbox'),
      uploadsDir: path.join(dataDir, 'uploads'),
      log: silentLogger,
    });
    try {
      fsyncs.synced.length = 0;
      await mailer.send({ to: 'a@example.com', subject: 'Quote', text: 'Hello' });
      await mailer.flush?.();
      expect(fsyncs.synced).toEqual(['data', 'outbox']);

      fsyncs.synced.length = 0;
      await mailer.send({ to: 'b@example.com', subject: 'Quote', text: 'Hello' });
      await mailer.flush?.();
      expect(fsyncs.synced).toEqual(['outbox']);
      expect(await readdir(path.join(dataDir, 'outbox'))).toHaveLength(2);
    } finally {
      mailer.close();
    }
  });
});
