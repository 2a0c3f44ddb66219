import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { MailWriter } from '../../src/services/mail-writer.js';
import { MAIL_SEND_ALLOWANCE_MS, createMailer } from '../../src/services/mailer.js';
import { silentLogger } from '../helper.js';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('the outbox folder mailer', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function outboxOf(from: string) {
    const dir = await mkdtemp(path.join(tmpdir(), 'mailer-'));
    dirs.push(dir);
    const outboxDir = path.join(dir, 'outbox');
    const mailer = createMailer({
      smtpUrl: null,
      from,
      outboxDir,
      uploadsDir: path.join(dir, 'uploads'),
      log: silentLogger,
    });
    return { mailer, outboxDir };
  }

  it('should give each message its own Message-ID, named after the file, at the sender’s domain', async () => {
    const { mailer, outboxDir } = await outboxOf('Client Hub <hub@firm.example>');
    for (const to of ['a@example.com', 'b@example.com']) {
      await mailer.send({ to, subject: 'Quote', text: 'Hello' });
    }
    await mailer.flush?.();
    const files = (await readdir(outboxDir)).filter((file) => file.endsWith('.eml'));
    expect(files).toHaveLength(2);
    const ids = new Set<string>();
    for (const file of files) {
      const message = await readFile(path.join(outboxDir, file), 'utf8');
      const match = new RegExp(`^Message-ID: <(${UUID})@firm\\.example>\\r?$`, 'm').exec(message);
      expect(match, message).not.toBeNull();
      const id = match?.[1] ?? '';
      expect(file.endsWith(`-${id}.eml`)).toBe(true);
      ids.add(id);
    }
    expect(ids.size).toBe(2);
  });

  // Found by the sixteenth session's fault probe: a mail whose attachment's stored file was deleted was retried
  // for ever, so the team never heard of the request at all.
  it('should send a mail whose stored attachment is gone without it, saying so, and log which file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mailer-'));
    dirs.push(dir);
    const outboxDir = path.join(dir, 'outbox');
    const uploadsDir = path.join(dir, 'uploads');
    await mkdir(uploadsDir);
    await writeFile(path.join(uploadsDir, 'kept.pdf'), '%PDF-1.7 kept');
    const errors: unknown[][] = [];
    const mailer = createMailer({
      smtpUrl: null,
      from: 'hub@firm.example',
      outboxDir,
      uploadsDir,
      log: {
        ...silentLogger,
        error: (...args: unknown[]) => errors.push(args),
      } as FastifyBaseLogger,
    });
    await mailer.send({
      to: 'team@firm.example',
      subject: 'Due diligence request',
      text: 'Reference: DD-0001\n',
      attachments: [
        { path: 'kept.pdf', filename: 'Kept plan.pdf', contentType: 'application/pdf' },
        { path: 'gone.pdf', filename: 'Site survey.pdf', contentType: 'application/pdf' },
      ],
    });
    const [file] = await readdir(outboxDir);
    const message = await readFile(path.join(outboxDir, file ?? ''), 'utf8');
    // The text part is quoted-printable: soft line breaks and =XX escapes undone.
    const text = message
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    expect(text).toContain('Reference: DD-0001');
    expect(text).toContain(
      'The attached file "Site survey.pdf" could not be sent: its stored copy is missing from the portal\'s ' +
        'uploads folder. Ask the sender for the file again.',
    );
    expect(message).toMatch(/filename="Kept plan\.pdf"/);
    expect(message).not.toMatch(/filename="Site survey\.pdf"/);
    expect(errors).toHaveLength(1);
    expect(errors[0]?.[0]).toMatchObject({
      file: path.join(uploadsDir, 'gone.pdf'),
      filename: 'Site survey.pdf',
    });
  });

  it('should still refuse (and so retry) a mail whose attachment cannot be read for another reason', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mailer-'));
    dirs.push(dir);
    // The uploads "folder" is a file: reaching any attachment under it fails with ENOTDIR, not ENOENT.
    await writeFile(path.join(dir, 'uploads'), '');
    const mailer = createMailer({
      smtpUrl: null,
      from: 'hub@firm.example',
      outboxDir: path.join(dir, 'outbox'),
      uploadsDir: path.join(dir, 'uploads'),
      log: silentLogger,
    });
    await expect(
      mailer.send({
        to: 'team@firm.example',
        subject: 'Due diligence request',
        text: 'x',
        attachments: [{ path: 'a.pdf', filename: 'a.pdf', contentType: 'application/pdf' }],
      }),
    ).rejects.toThrow(/ENOTDIR/);
  });

  it('should take the domain of a bare sender address too', async () => {
    const { mailer, outboxDir } = await outboxOf('hub@northbank.example');
    await mailer.send({ to: 'a@example.com', subject: 'Quote', text: 'Hello' });
    const [file] = await readdir(outboxDir);
    const message = await readFile(path.join(outboxDir, file ?? ''), 'utf8');
    expect(message).toMatch(new RegExp(`^Message-ID: <${UUID}@northbank\\.example>\\r?$`, 'm'));
  });
});

describe('MailWriter (the outbox’s worker thread)', () => {
  const message = {
    messageId: '<1@firm.example>',
    from: 'hub@firm.example',
    to: 'team@firm.example',
    subject: 'Quote £1,234',
    text: 'Hello',
    attachments: [],
  };

  it('should reject a message it cannot write, and go on writing the next ones', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'mail-writer-'));
    const writer = new MailWriter();
    try {
      await expect(
        writer.write(
          message,
          path.join(dir, 'missing', '.a.tmp'),
          path.join(dir, 'missing', 'a.eml'),
        ),
      ).rejects.toThrow(/ENOENT/);
      await writer.write(message, path.join(dir, '.b.tmp'), path.join(dir, 'b.eml'));
      expect(await readdir(dir)).toEqual(['b.eml']);
      const written = await readFile(path.join(dir, 'b.eml'), 'utf8');
      expect(written).toMatch(/^Message-ID: <1@firm\.example>\r?$/m);
      expect(written).toMatch(/^Subject: =\?UTF-8\?/m);
    } finally {
      await writer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('should refuse to write once closed', async () => {
    const writer = new MailWriter();
    await writer.close();
    await expect(
      writer.write(message, '/nonexistent/.x.tmp', '/nonexistent/x.eml'),
    ).rejects.toThrow('The mail writer is closed.');
  });

  // Found by the twenty-first session's staff-tool probe (by way of the form service): a server that takes the
  // connection and says nothing held a send for nodemailer's 10 minutes, past the worker's five-minute claim. The
  // mailer now gives up within MAIL_SEND_ALLOWANCE_MS, and SMTP_URL's own options still win (here, a short one).
  it('should give up on a mail server that never greets, in the time SMTP_URL says', async () => {
    const sockets: Socket[] = [];
    const silent = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const dir = await mkdtemp(path.join(tmpdir(), 'mailer-'));
    try {
      const { port } = silent.address() as AddressInfo;
      const mailer = createMailer({
        smtpUrl: `smtp://127.0.0.1:${port}?greetingTimeout=300`,
        from: 'Client Hub <hub@firm.example>',
        outboxDir: path.join(dir, 'outbox'),
        uploadsDir: path.join(dir, 'uploads'),
        log: silentLogger,
      });
      const started = Date.now();
      await expect(mailer.send({ to: 'a@example.com', subject: 'S', text: 'T' })).rejects.toThrow(
        /greeting/i,
      );
      expect(Date.now() - started).toBeLessThan(5_000);
      mailer.close();
      expect(MAIL_SEND_ALLOWANCE_MS).toBeLessThanOrEqual(2 * 60_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
      await rm(dir, { recursive: true, force: true });
    }
  });
});
