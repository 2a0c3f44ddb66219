import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PERSON,
  buildTestApp,
  databases,
  decodeMail,
  loginLinkToken,
  outboxMails,
  sessionCookie,
  type TestApp,
} from '../helper.js';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP receiver on 127.0.0.1 (random port). */
async function startSmtp(port = 0) {
  const messages: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        messages.push({
          from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address() as AddressInfo;
  return {
    messages,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(databases)('magic-link login over SMTP ($name)', (target) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await buildTestApp(target, {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Portal <portal@advisory.example>',
      PUBLIC_URL: 'https://portal.example',
    });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('should deliver the link by SMTP and log in with it', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login',
      payload: { ...PERSON, email: 'smtp@example.com' },
    });
    expect(response.json()).toEqual({ redirect: false });
    await t.app.background.drain();
    expect(smtp.messages).toHaveLength(1);
    const message = smtp.messages[0];
    expect(message?.from).toBe('portal@advisory.example');
    expect(message?.to).toEqual(['smtp@example.com']);
    const text = decodeMail(message?.raw ?? '');
    expect(text).toContain('Subject: Your login link for Northbank Capital');
    expect(text).toContain('https://portal.example/api/northbank/login/link?token=');
    // SMTP configured: nothing goes to the outbox folder.
    expect(await outboxMails(t.dataDir)).toEqual([]);

    const link = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/login/link',
      payload: `token=${loginLinkToken(message?.raw ?? '')}`,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://portal.example',
      },
    });
    expect(link.statusCode).toBe(303);
    const me = await t.app.inject({
      method: 'GET',
      url: '/api/northbank',
      headers: { cookie: sessionCookie(link) },
    });
    expect(me.json()).toMatchObject({ logged_in: true, email: 'smtp@example.com' });
  });
});

describe('outbox with the mail server down', () => {
  it('should keep the mail, back off, and send it once the server is up', async () => {
    // Find a free port, then leave it closed: the mail server is "down".
    const probe = await startSmtp();
    const port = probe.port;
    await probe.close();
    const t = await buildTestApp(databases[0]!, { SMTP_URL: `smtp://127.0.0.1:${port}` });
    let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;
    try {
      await t.app.inject({ method: 'POST', url: '/api/northbank/login', payload: PERSON });
      await t.app.background.drain();
      const failed = await t.app.db.kysely
        .selectFrom('outbox')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(failed).toMatchObject({ attempts: 1, sent_at: null });
      expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
      expect(Date.parse(failed.next_attempt_at) - t.clock.now().getTime()).toBe(30_000);

      t.clock.advance(31_000);
      await t.app.outbox.runOnce();
      const again = await t.app.db.kysely
        .selectFrom('outbox')
        .selectAll()
        .executeTakeFirstOrThrow();
      expect(again.attempts).toBe(2);
      expect(Date.parse(again.next_attempt_at) - t.clock.now().getTime()).toBe(60_000);

      smtp = await startSmtp(port);
      t.clock.advance(61_000);
      await t.app.outbox.runOnce();
      expect(smtp.messages).toHaveLength(1);
      const sent = await t.app.db.kysely.selectFrom('outbox').selectAll().executeTakeFirstOrThrow();
      expect(sent.sent_at).not.toBeNull();
      // The link still works: the token lives 15 minutes from the request.
      const token = loginLinkToken(smtp.messages[0]?.raw ?? '');
      const link = await t.app.inject({
        method: 'POST',
        url: '/api/northbank/login/link',
        payload: `token=${token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(link.statusCode).toBe(303);
    } finally {
      await t.close();
      await smtp?.close();
    }
  });
});
