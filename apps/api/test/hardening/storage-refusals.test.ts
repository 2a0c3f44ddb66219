import { execFileSync, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, unlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_REFUSED_MESSAGE } from '../../src/app.js';
import {
  buildTestApp,
  loginLinkToken,
  loginOpen,
  multipart,
  outboxMails,
  pdf,
  type TestApp,
} from '../helper.js';
import { DUE_DILIGENCE_FIELDS } from './support.js';

/**
 * Found by the seventeenth session's fault probe: a data folder that refused a file operation while the server
 * ran (an uploads folder it may not write, or a file in its place; a media folder it may not read) was answered
 * 500 "Internal server error". It is a 503 saying so, with Retry-After, and the error in the log.
 */
describe('the data folder refusing a file operation while the server runs', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should answer a due-diligence request 503 in plain words when the uploads folder is a file', async () => {
    const uploads = path.join(t.dataDir, 'uploads');
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'not a folder');
    try {
      const form = multipart(DUE_DILIGENCE_FIELDS, { filename: 'plan.pdf', content: pdf(2048) });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        headers: { ...form.headers, cookie },
        payload: form.payload,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ error: STORAGE_REFUSED_MESSAGE });
      const stored = await t.app.db.kysely.selectFrom('due_diligence').select('id').execute();
      expect(stored).toEqual([]);
    } finally {
      await rm(uploads, { force: true });
      await mkdir(uploads);
    }
  });
});

/**
 * Found by the eighteenth session's fault probe: under a limit on the size of the files a process may write (a
 * shell's `ulimit -f`, systemd's LimitFSIZE=), an upload past it was a 500 "Internal server error" (EFBIG).
 */
describe('a limit on the size of the files the server may write', () => {
  it('should answer an upload past it 503 in plain words, keep nothing of it, and go on', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-fsize-'));
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const apiDir = path.join(import.meta.dirname, '..', '..');
    // 2 MB a file (bash counts in 1,024-byte blocks): the database and the demo's media stay under it.
    const child = spawn(
      'bash',
      ['-c', `ulimit -f 2048 && exec "${process.execPath}" --import tsx/esm src/server.ts`],
      {
        cwd: apiDir,
        env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Portal at')) resolve();
        });
        child.once('exit', (code) =>
          reject(new Error(`the server ended (${String(code)}): ${out}`)),
        );
      });
      const base = `http://127.0.0.1:${port}`;
      const login = await fetch(`${base}/api/demo/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: 'ada.fsize@example.com',
          phone: '020 7946 0000',
        }),
      });
      expect(login.status).toBe(200);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      const send = (size: number) => {
        const form = multipart(DUE_DILIGENCE_FIELDS, { filename: 'plan.pdf', content: pdf(size) });
        return fetch(`${base}/api/demo/due-diligence`, {
          method: 'POST',
          headers: { ...form.headers, cookie },
          body: form.payload,
          redirect: 'manual',
        });
      };
      const refused = await send(3 * 1024 * 1024);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(await refused.json()).toEqual({ error: STORAGE_REFUSED_MESSAGE });
      expect(await readdir(path.join(dataDir, 'uploads'))).toEqual([]);
      // A file under the limit is taken.
      expect((await send(512 * 1024)).status).toBe(303);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});

/**
 * A test app whose database takes no write (`fault`): its -shm file deleted by another program (every write is
 * refused from then on: db/sqlite-files.ts), or its disk full (a small tmpfs, mounted as root; skipped where
 * mounting is not allowed). `run` gets the app, a session cookie and a magic-link client's login link token made
 * before the fault.
 */
/** Asks for a login link to northbank (a magic-link client) and reads its token from the outbox. */
async function askLinkToken(t: TestApp): Promise<string> {
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/northbank/login',
    payload: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com', phone: '1' },
  });
  expect(asked.statusCode, asked.body).toBe(200);
  await t.app.background.drain();
  const [mail] = await outboxMails(t.config.dataDir);
  return loginLinkToken(mail ?? '');
}

async function withNoWrites(
  fault: 'files replaced' | 'full disk',
  context: { skip: () => void },
  run: (t: TestApp, cookie: string, linkToken: string) => Promise<void>,
): Promise<void> {
  if (fault === 'files replaced') {
    const t = await buildTestApp({ name: 'sqlite', url: null });
    try {
      const cookie = await loginOpen(t.app);
      const linkToken = await askLinkToken(t);
      await unlink(path.join(t.dataDir, 'portal.sqlite-shm'));
      await run(t, cookie, linkToken);
    } finally {
      await t.close();
    }
    return;
  }
  if (process.getuid?.() !== 0) return context.skip();
  const mount = await mkdtemp(path.join(tmpdir(), 'firm-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=8m', 'tmpfs', mount], { stdio: 'ignore' });
  } catch {
    await rm(mount, { recursive: true, force: true });
    return context.skip();
  }
  try {
    const t = await buildTestApp(
      { name: 'sqlite', url: null },
      { DATA_DIR: path.join(mount, 'data'), MIN_FREE_DISK_MB: '0' },
    );
    try {
      const cookie = await loginOpen(t.app);
      const linkToken = await askLinkToken(t);
      // Fills what is left of the disk (the write stops at ENOSPC, and its file stays).
      await writeFile(path.join(mount, 'filler'), Buffer.alloc(8 * 1024 * 1024)).catch(
        () => undefined,
      );
      await run(t, cookie, linkToken);
    } finally {
      await t.close();
    }
  } finally {
    execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
    await rm(mount, { recursive: true, force: true });
  }
}

describe.each(['files replaced', 'full disk'] as const)(
  'a database that takes no writes (%s)',
  (fault) => {
    /*
     * Found by the thirty-first session's fault probe: on a full disk (or a database refusing writes) Log out
     * showed the raw JSON "The portal cannot store this just now" and kept the cookie, so the browser stayed
     * logged in for the next person at a shared computer. The cookie is cleared and the login page follows.
     */
    it('should clear the cookie on Log out and go to the login page', async (context) => {
      await withNoWrites(fault, context, async (t, cookie) => {
        const logout = await t.app.inject({
          method: 'GET',
          url: '/api/demo/logout',
          headers: { cookie },
        });
        expect(logout.statusCode, logout.body).toBe(303);
        expect(logout.headers.location).toBe('/demo/login');
        expect(String(logout.headers['set-cookie'])).toMatch(
          /^sid=;.*Max-Age=0|Expires=Thu, 01 Jan 1970/,
        );
        // A signed cookie of no session of this client goes to the login page too, not to raw JSON.
        const stranger = await t.app.inject({
          method: 'GET',
          url: '/api/demo/logout',
          headers: { cookie: `sid=${t.app.signCookie('A'.repeat(43))}` },
        });
        expect(stranger.statusCode, stranger.body).toBe(303);
        expect(stranger.headers.location).toBe('/demo/login');
      });
    });

    // Found by the thirty-first session's fault probe: a full disk's 507 on the login link's Continue was JSON,
    // shown raw by the browser. It is a page saying so (nothing was spent: the link works once the fault is gone).
    it('should answer the login link’s Continue with a page, not JSON, and log no one in', async (context) => {
      await withNoWrites(fault, context, async (t, _cookie, token) => {
        const link = await t.app.inject({
          method: 'POST',
          url: '/api/northbank/login/link',
          payload: `token=${token}`,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        });
        expect(link.statusCode).toBeGreaterThanOrEqual(500);
        expect(link.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(link.headers['cache-control']).toBe('no-store');
        expect(link.headers['set-cookie']).toBeUndefined();
        expect(link.body).toContain('<h1>The portal cannot log you in just now</h1>');
        expect(link.body).toContain('Your login link has not been used');
      });
    });

    /*
     * Found by the thirty-first session's fault probe: a session last seen over a minute before is moved on by a
     * write, and on a full disk that write failed the read: every page of the portal was a 507 "cannot store this
     * just now" for everyone logged in.
     */
    it('should go on answering reads of a session last seen over a minute before', async (context) => {
      await withNoWrites(fault, context, async (t, cookie) => {
        t.clock.advance(2 * 60_000);
        for (const url of ['/api/demo', '/api/demo/content']) {
          const read = await t.app.inject({ method: 'GET', url, headers: { cookie } });
          expect(read.statusCode, `${url}: ${read.body}`).toBe(200);
        }
        const client = await t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } });
        expect(client.json()).toMatchObject({ logged_in: true });
        // A session past its idle limit is no one's, whether or not its row can go.
        t.clock.advance(13 * 60 * 60_000);
        const idle = await t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } });
        expect(idle.statusCode, idle.body).toBe(200);
        expect(idle.json()).toMatchObject({ logged_in: false });
      });
    });
  },
);

// Found by the thirty-first session's fault probe: a file named `media` in the data folder stopped the first start
// with a JSON log line and a stack (ENOTDIR), where every other storage fault is one plain line.
describe('a first start with a file where the media folder must be', () => {
  it('should stop with one plain line naming the folder and the reason', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-media-file-'));
    try {
      await writeFile(path.join(dataDir, 'media'), 'not a folder');
      const starting = buildTestApp({ name: 'sqlite', url: null }, { DATA_DIR: dataDir });
      await expect(starting).rejects.toThrow(
        `The demo content cannot be stored in ${dataDir}: a file is where a folder must be (ENOTDIR). ` +
          'DATA_DIR must be a writable folder with free space.',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

// Found by the thirty-first session's fault probe: with a file named `uploads` the server started, then refused every
// due diligence request with a 503, and each hourly sweep logged a stack at error. The local outbox likewise.
describe('a start with a file where the uploads or the outbox folder must be', () => {
  it.each([
    ['uploads', "due diligence requests' files"],
    ['outbox', 'mails'],
  ])('should stop with one plain line naming the folder (%s)', async (folder, holds) => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-folder-file-'));
    try {
      await writeFile(path.join(dataDir, folder), 'not a folder');
      const starting = buildTestApp({ name: 'sqlite', url: null }, { DATA_DIR: dataDir });
      await expect(starting).rejects.toThrow(
        `${path.join(dataDir, folder)} must be a folder (it holds the ${holds}), but a file is there. ` +
          'Move the file away, then start the server again.',
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('should start with the folders there, or not yet made', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-folder-file-'));
    try {
      const t = await buildTestApp({ name: 'sqlite', url: null }, { DATA_DIR: dataDir });
      await t.close();
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
