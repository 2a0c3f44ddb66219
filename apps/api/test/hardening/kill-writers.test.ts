import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { createClient, findClientByPrefix } from '../../src/repositories/clients.js';
import { importContent } from '../../src/services/content-import.js';
import { createMailer } from '../../src/services/mailer.js';
import { silentLogger } from '../helper.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiRoot = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
/** tsx's loader, so a child runs the TypeScript sources as the tests do. */
const TSX_LOADER = pathToFileURL(require.resolve('tsx/esm')).href;
const src = (file: string) => JSON.stringify(pathToFileURL(path.join(apiRoot, 'src', file)).href);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Big enough that each copy or message takes a while to write, small enough for CI. */
const BIG = 12 * 1024 * 1024;

/** A child that imports the content folder again and again, each time with a new big video to copy. */
const IMPORTER = `
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { openDatabase } from ${src('db/connect.ts')};
import { findClientByPrefix } from ${src('repositories/clients.ts')};
import { importContent } from ${src('services/content-import.ts')};
const [dataDir, folder, size] = process.argv.slice(2);
const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
const client = await findClientByPrefix(db.kysely, 'demo');
for (;;) {
  writeFileSync(folder + '/media/big.webm', Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(Number(size))]));
  await importContent(db.kysely, client, folder, dataDir + '/media', new Date());
}
`;

/** A child that writes big messages into the outbox folder, one after another. */
const MAILER = `
import { createMailer } from ${src('services/mailer.ts')};
const [outboxDir, uploadsDir] = process.argv.slice(2);
const log = { info() {}, warn() {}, error() {}, debug() {} };
// The writer's thread is unref'd (the server keeps the process alive): so does this.
setInterval(() => undefined, 60_000);
const mailer = createMailer({ smtpUrl: null, from: 'Portal <portal@advisory.example>', outboxDir, uploadsDir, log });
for (;;) {
  await mailer.send({
    to: 'team@advisory.example',
    subject: 'Due diligence request',
    text: 'A request.',
    attachments: [{ path: 'big.pdf', filename: 'report.pdf', contentType: 'application/pdf' }],
  });
}
`;

/** A child that opens (creating) the database, says so, and waits to be killed. */
const OPENER = `
import { openDatabase } from ${src('db/connect.ts')};
await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: process.argv[2] });
process.stdout.write('open\\n');
setInterval(() => undefined, 60_000);
`;

/**
 * Runs `script` in a child and SIGKILLs it as soon as a file whose name matches `partial` appears in `watched`
 * (the child is then writing it). Resolves with the names in `watched` at the moment of the kill.
 */
async function killWhileWriting(
  script: string,
  args: string[],
  watched: string,
  partial: RegExp,
): Promise<string[]> {
  const child: ChildProcess = spawn(process.execPath, ['--import', TSX_LOADER, script, ...args], {
    cwd: apiRoot,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let errors = '';
  child.stderr?.on('data', (d: Buffer) => (errors += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 30_000;
  try {
    for (;;) {
      const names = existsSync(watched) ? await readdir(watched) : [];
      if (names.some((name) => partial.test(name))) {
        child.kill('SIGKILL');
        await exited;
        return names;
      }
      if (child.exitCode !== null) throw new Error(`the child ended by itself: ${errors}`);
      if (Date.now() > deadline) throw new Error('no partial file appeared within 30 s');
      await sleep(1);
    }
  } finally {
    child.kill('SIGKILL');
  }
}

describe('SIGKILL while files are written', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-kill-writers-'));
    await writeFile(path.join(scratch, 'importer.mts'), IMPORTER);
    await writeFile(path.join(scratch, 'mailer.mts'), MAILER);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('should leave no half-copied media once the content import runs again', async () => {
    const dataDir = path.join(scratch, 'import-data');
    const folder = path.join(scratch, 'import-content');
    await mkdir(path.join(folder, 'media'), { recursive: true });
    await writeFile(path.join(folder, 'client.yml'), 'prefix: demo\nname: Demo\nlogin: open\n');
    await writeFile(
      path.join(folder, 'video.md'),
      '---\ntitle: Welcome\nsrc: media/big.webm\n---\nA video.\n',
    );
    await writeFile(
      path.join(folder, 'media', 'big.webm'),
      Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3]), randomBytes(16)]),
    );
    const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
    await createClient(
      db.kysely,
      { prefix: 'demo', name: 'Demo', loginPolicy: 'open', branding: {} },
      new Date(),
    );
    await db.close();

    const mediaDir = path.join(dataDir, 'media', 'demo');
    const atKill = await killWhileWriting(
      path.join(scratch, 'importer.mts'),
      [dataDir, folder, String(BIG)],
      mediaDir,
      /\.tmp-/,
    );
    expect(atKill.some((name) => name.includes('.tmp-'))).toBe(true);

    // The import is run again by hand: it works, and what the killed one was copying is gone.
    const again = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
    try {
      const client = await findClientByPrefix(again.kysely, 'demo');
      if (client === undefined) throw new Error('no client');
      const summary = await importContent(
        again.kysely,
        client,
        folder,
        path.join(dataDir, 'media'),
        new Date(),
      );
      expect(summary.video).toBe(true);
    } finally {
      await again.close();
    }
    const names = await readdir(mediaDir);
    expect(names.filter((name) => !/^[a-f0-9]{20}\.webm$/.test(name))).toEqual([]);
    for (const name of names) {
      const digest = createHash('sha256')
        .update(await readFile(path.join(mediaDir, name)))
        .digest('hex');
      expect(digest.startsWith(name.slice(0, 20)), name).toBe(true);
    }
  }, 60_000);

  it('should leave no partial message in the outbox folder once the mailer starts again', async () => {
    const outboxDir = path.join(scratch, 'mail-data', 'outbox');
    const uploadsDir = path.join(scratch, 'mail-data', 'uploads');
    await mkdir(uploadsDir, { recursive: true });
    await writeFile(
      path.join(uploadsDir, 'big.pdf'),
      Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(BIG)]),
    );

    const atKill = await killWhileWriting(
      path.join(scratch, 'mailer.mts'),
      [outboxDir, uploadsDir],
      outboxDir,
      /\.eml\.tmp$/,
    );
    expect(atKill.some((name) => name.endsWith('.eml.tmp'))).toBe(true);

    // The next start's mailer: it writes its own message, and no partial one is left beside it.
    const mailer = createMailer({
      smtpUrl: null,
      from: 'Portal <portal@advisory.example>',
      outboxDir,
      uploadsDir,
      log: silentLogger,
    });
    await mailer.send({
      to: 'team@advisory.example',
      subject: 'After the restart',
      text: 'Hello.',
    });
    mailer.close();
    const names = await readdir(outboxDir);
    expect(names.filter((name) => !/^[^.].*\.eml$/.test(name))).toEqual([]);
    for (const name of names) {
      const message = await readFile(path.join(outboxDir, name), 'latin1');
      const boundary = /boundary="([^"]+)"/.exec(message)?.[1];
      if (boundary !== undefined)
        expect(message.trimEnd().endsWith(`--${boundary}--`), name).toBe(true);
      else expect(message).toContain('Subject: After the restart');
    }
  }, 60_000);
});

/**
 * A folder on read-only storage, with a database the server had been using (its -wal and -shm files kept, as a
 * kill leaves them). As root (permissions do not apply) a small tmpfs is mounted and remounted read-only; where
 * mounting is not allowed the test is skipped.
 */
async function readOnlyDataDir(
  scratch: string,
): Promise<{ dataDir: string; release: () => void } | undefined> {
  const mount = path.join(scratch, 'mnt');
  await mkdir(mount, { recursive: true });
  const root = process.getuid?.() === 0;
  if (root) {
    try {
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', mount], { stdio: 'ignore' });
    } catch {
      return undefined;
    }
  }
  const dataDir = path.join(mount, 'data');
  // The database of a server that was killed: its -wal and -shm files stay.
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, path.join(scratch, 'opener.mts'), dataDir],
    {
      cwd: apiRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  await new Promise<void>((resolve, reject) => {
    child.stdout.once('data', () => resolve());
    child.once('exit', () => reject(new Error('the database could not be created')));
  });
  child.kill('SIGKILL');
  await new Promise((resolve) => child.once('exit', resolve));
  const files = await readdir(dataDir);
  expect(files).toContain('portal.sqlite-shm');
  if (root) execFileSync('mount', ['-o', 'remount,ro', mount], { stdio: 'ignore' });
  else {
    for (const file of files) await chmod(path.join(dataDir, file), 0o444);
    await chmod(dataDir, 0o555);
  }
  return {
    dataDir,
    release: () => {
      if (root) execFileSync('umount', ['-l', mount], { stdio: 'ignore' });
      else execFileSync('chmod', ['-R', 'u+w', dataDir]);
    },
  };
}

describe('a start on storage that cannot be written', () => {
  let scratch: string;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-readonly-'));
    await writeFile(path.join(scratch, 'opener.mts'), OPENER);
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('should refuse to open a read-only database with one plain line', async (context) => {
    const folder = await readOnlyDataDir(scratch);
    if (folder === undefined) return context.skip();
    try {
      const opening = openDatabase({
        databaseUrl: null,
        databaseSchema: null,
        dataDir: folder.dataDir,
      });
      await expect(opening).rejects.toThrow(
        new RegExp(
          `^The database ${folder.dataDir}/portal\\.sqlite cannot be written: (it is read-only|it cannot be opened for writing) \\(\\w+\\)\\. DATA_DIR must be a writable folder with free space\\.$`,
        ),
      );
    } finally {
      folder.release();
    }
  });
});
