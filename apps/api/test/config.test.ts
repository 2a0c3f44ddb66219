import { spawn, spawnSync } from 'node:child_process';
import {
  chmod,
  copyFile,
  cp,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import Database from 'better-sqlite3';
import { ConfigError, loadConfig, resolveSessionSecret } from '../src/config.js';
import { makeDataDir } from '../src/data-dir.js';
import { openDatabase } from '../src/db/connect.js';
import { migrations } from '../src/db/migrations.js';
import { StorageError } from '../src/storage-error.js';
import { FIXTURE_CONTENT } from './helper.js';

/** A tmpfs can be mounted here (root on Linux, as on the CI machine); elsewhere the read-only test is skipped. */
function canMountTmpfs(): boolean {
  if (process.platform !== 'linux' || process.getuid?.() !== 0) return false;
  const probe = mkdtempSync(path.join(tmpdir(), 'firm-mount-'));
  try {
    mountTmpfs(probe, 'rw');
    spawnSync('umount', [probe]);
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

function mountTmpfs(at: string, mode: 'ro' | 'rw', size = '1m'): void {
  const result = spawnSync('mount', ['-t', 'tmpfs', '-o', `${mode},size=${size}`, 'tmpfs', at]);
  if (result.status !== 0) throw new Error(`mount failed: ${String(result.stderr)}`);
}

/** The API's folder, and its server run from source (as `pnpm start` would, without a build). */
const API_DIR = path.join(import.meta.dirname, '..');
const SERVER_ARGS = ['--import', 'tsx/esm', path.join(API_DIR, 'src', 'server.ts')];

/** Runs the server from source until it stops by itself (a start that fails), with `env` over this process's. */
function runServer(env: Record<string, string>) {
  return spawnSync(process.execPath, SERVER_ARGS, {
    cwd: API_DIR,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** As `runServer`, without blocking this process (which may be serving the server something meanwhile). */
function runServerAsync(
  env: Record<string, string>,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, SERVER_ARGS, {
    cwd: API_DIR,
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

/**
 * Starts the server from source (after the modules in `preload`) with `env` over this process's, its standard
 * output and error gathered in `output.text`; `until(text)` resolves once it has printed `text`, and rejects if the
 * server ends first. `ended` resolves with its exit code.
 */
function spawnServer(env: Record<string, string>, preload: string[] = []) {
  const child = spawn(process.execPath, [...preload, ...SERVER_ARGS], {
    cwd: API_DIR,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = { text: '' };
  child.stdout.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output.text += chunk.toString()));
  let over = false;
  const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
  void ended.then(() => (over = true));
  const until = (text: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (output.text.includes(text)) resolve();
        else if (over) reject(new Error(`the server ended before “${text}”: ${output.text}`));
        else setTimeout(check, 20);
      };
      check();
    });
  return { child, output, ended, until };
}

/** A `--import` module that puts the loader `hooks` (a module's URL) in place before the server's modules load. */
function withLoaderHooks(hooks: string): string {
  return `data:text/javascript,${encodeURIComponent(
    `import { register } from 'node:module'; register(${JSON.stringify(hooks)});`,
  )}`;
}

/** Starts the server from source and resolves once it listens (see {@link spawnServer}). */
async function startServer(env: Record<string, string>) {
  const server = spawnServer(env);
  await server.until('Portal at');
  return server;
}

/** Runs `work` on a new tmpfs mounted read-only or read-write, then unmounts and removes it. */
async function withTmpfs(mode: 'ro' | 'rw', size: string, work: (mount: string) => Promise<void>) {
  const mount = await mkdtemp(path.join(tmpdir(), `firm-${mode}-`));
  try {
    mountTmpfs(mount, mode, size);
    await work(mount);
  } finally {
    spawnSync('umount', [mount]);
    await rm(mount, { recursive: true, force: true });
  }
}

describe('loadConfig', () => {
  it('should apply the documented defaults', () => {
    const config = loadConfig({ INIT_CWD: '/srv/portal' });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: '/srv/portal/data',
      databaseUrl: null,
      smtpUrl: null,
      formServiceUrl: null,
      providerPhone: '020 7946 0000',
      providerEmail: 'team@advisory.example',
      defaultClient: 'demo',
      trustProxy: false,
    });
    expect(config.publicUrl.href).toBe('http://127.0.0.1:3000/');
    expect(config.regulatoryText).toContain('fictional');
    expect(config.contentDir.endsWith(`${path.sep}content`)).toBe(true);
    expect(config.portalDist.endsWith(path.join('apps', 'portal', 'dist'))).toBe(true);
  });

  it('should refuse a DATA_DIR set but empty rather than use ./data', () => {
    expect(() => loadConfig({ DATA_DIR: ' ' })).toThrow(
      'DATA_DIR is set but empty: name the data folder, or unset it for ./data.',
    );
  });

  // Found by the nineteenth session's fault probe: empty, they meant SQLite and a secret of this DATA_DIR's own.
  it('should refuse a DATABASE_URL or SESSION_SECRET set but empty rather than use their defaults', () => {
    expect(() => loadConfig({ DATABASE_URL: '' })).toThrow(
      'DATABASE_URL is set but empty: give the PostgreSQL URL, or unset it for SQLite in DATA_DIR.',
    );
    expect(() => loadConfig({ SESSION_SECRET: '  ' })).toThrow(
      'SESSION_SECRET is set but empty: give the secret, or unset it for one kept in DATA_DIR.',
    );
  });

  // Found by the thirtieth session's PostgreSQL probe: a schema named pg_… (PostgreSQL keeps those names) passed this
  // check, then stopped the start with a JSON line and a stack: unacceptable schema name "pg_portal".
  it('should refuse a DATABASE_SCHEMA PostgreSQL keeps for itself, in one line', () => {
    for (const schema of ['pg_portal', 'pg_catalog', 'information_schema']) {
      expect(() => loadConfig({ DATABASE_SCHEMA: schema })).toThrow(
        `DATABASE_SCHEMA must not be "${schema}": PostgreSQL keeps pg_… names and information_schema for itself.`,
      );
    }
    expect(loadConfig({ DATABASE_SCHEMA: 'portal_pg' }).databaseSchema).toBe('portal_pg');
  });

  it('should resolve a relative DATA_DIR against INIT_CWD', () => {
    expect(loadConfig({ INIT_CWD: '/repo', DATA_DIR: 'var/data' }).dataDir).toBe('/repo/var/data');
    expect(loadConfig({ PORT: '8080' }).publicUrl.href).toBe('http://127.0.0.1:8080/');
  });

  it('should report every bad value with a clear message', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        PUBLIC_URL: 'portal.example',
        SESSION_SECRET: 'short',
        SMTP_URL: 'http://mail',
        TEAM_EMAIL: 'nobody',
        DEFAULT_CLIENT: 'Not A Prefix',
        TRUST_PROXY: 'maybe',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toEqual([
      'PORT must be a whole number from 1 to 65535 (got "eighty").',
      'DATABASE_URL must be a postgres: or postgresql:// URL (got "mysql://x").',
      'PUBLIC_URL must be a http: or https:// URL (got "portal.example").',
      'SESSION_SECRET must be at least 32 characters long.',
      'SMTP_URL must be a smtp: or smtps:// URL (got "http://mail").',
      'DEFAULT_CLIENT must be a client prefix like "demo" (got "Not A Prefix").',
      'TRUST_PROXY must be true or false (got "maybe").',
      'TEAM_EMAIL must be an e-mail address (got "nobody").',
    ]);
  });

  // Found by the twenty-third session's staff-tool probe: taken at start, then every forward failed with "URI
  // malformed", for ever. The refusal does not print the password.
  it('should refuse a form service or mail server URL whose password holds a bare %', () => {
    for (const [name, value] of [
      ['FORM_SERVICE_URL', 'https://user:pa%ss@forms.example/f'],
      ['SMTP_URL', 'smtp://user:pa%zzs@mail.example:587'],
    ] as const) {
      let error: unknown;
      try {
        loadConfig({ [name]: value });
      } catch (e) {
        error = e;
      }
      expect(error, name).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems).toEqual([
        `${name}: its user name or password holds a "%" that starts no escape: write a % in them as %25.`,
      ]);
    }
    expect(
      loadConfig({ FORM_SERVICE_URL: 'https://user:pa%25ss@forms.example/f' }).formServiceUrl,
    ).toBe('https://user:pa%25ss@forms.example/f');
  });

  it('should read ALLOWED_HOSTS as host names, "*" as any, and refuse entries that are no host name', () => {
    expect(loadConfig({}).allowedHosts).toEqual([]);
    expect(
      loadConfig({ ALLOWED_HOSTS: ' Portal.Internal., portal-2.example ,,' }).allowedHosts,
    ).toEqual(['portal.internal', 'portal-2.example']);
    expect(loadConfig({ ALLOWED_HOSTS: '*' }).allowedHosts).toBeNull();
    const problemsOf = (raw: string) => {
      try {
        loadConfig({ ALLOWED_HOSTS: raw });
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    for (const entry of [
      'https://portal.example',
      'portal.example:8443',
      'portal.example/x',
      '*.example',
      'a b',
      '-a',
    ]) {
      expect(problemsOf(`ok.example, ${entry}`), entry).toEqual([
        'ALLOWED_HOSTS must list host names separated by commas, such as "portal.example, portal.internal", ' +
          `without a scheme, port or path, or be "*" alone (got "${entry}").`,
      ]);
    }
    // "*" among names would read as "any" to one person and as a typo to another: refused.
    expect(problemsOf('portal.example, *')).toHaveLength(1);
  });

  // Found by the seventeenth session's fault probe: these were taken, and served on every page or in every link.
  it('should refuse a PUBLIC_URL with a user or path, and provider contacts the staff tool would refuse', () => {
    const problemsOf = (env: Record<string, string>) => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problemsOf({ PUBLIC_URL: 'http://user:pw@portal.example/' })).toEqual([
      'PUBLIC_URL must be an origin such as https://portal.example, without a user, password or path (got "http://user:***@portal.example/").',
    ]);
    // Twenty-ninth session's probe: a URL refused for its scheme was quoted whole, its password in the log.
    expect(
      problemsOf({
        SMTP_URL: 'smpts://mailer:S3cretPw@smtp.example:465',
        DATABASE_URL: 'postgress://portal:p@ss/w0rd@db.internal/portal',
        FORM_SERVICE_URL: 'htps://forms:S3cretPw@forms.example/submit',
      }),
    ).toEqual([
      'DATABASE_URL must be a postgres: or postgresql:// URL (got "postgress://portal:***@db.internal/portal").',
      'SMTP_URL must be a smtp: or smtps:// URL (got "smpts://mailer:***@smtp.example:465").',
      'FORM_SERVICE_URL must be a http: or https:// URL (got "htps://forms:***@forms.example/submit").',
    ]);
    expect(problemsOf({ PUBLIC_URL: 'https://portal.example/sub/path/' })).toHaveLength(1);
    expect(problemsOf({ PUBLIC_URL: 'https://portal.example/' })).toEqual([]);
    expect(problemsOf({ PROVIDER_EMAIL: 'x@y.example?bcc=evil@x.example' })[0]).toMatch(
      /^PROVIDER_EMAIL must be one e-mail address such as team@advisory\.example/,
    );
    expect(problemsOf({ PROVIDER_EMAIL: '\u202emoc.elpmaxe@yrosivda.maet' })).toEqual([
      'PROVIDER_EMAIL must be one e-mail address such as team@advisory.example, without spaces, invisible or ' +
        'text-direction characters, or any of ? # % & , ; < > " \\ (got "moc.elpmaxe@yrosivda.maet", which holds ' +
        'U+202E, a character that shows nothing or changes the text’s direction).',
    ]);
    // Twenty-ninth session's probe: ſ (U+017F) case-folds to s, and was taken as an ASCII host name's letter.
    expect(problemsOf({ PROVIDER_EMAIL: 'team@advi\u017fory.example' })[0]).toMatch(
      /^PROVIDER_EMAIL must be one e-mail address such as team@advisory\.example/,
    );
    expect(problemsOf({ PROVIDER_PHONE: '020 7946 0000\nBcc: evil@x.example' })).toEqual([
      'PROVIDER_PHONE must be one line of text, without line breaks, tabs, control characters or text-direction marks.',
    ]);
    expect(
      problemsOf({ PROVIDER_EMAIL: 'help@firm.example', PROVIDER_PHONE: '+44 20 7946 0000' }),
    ).toEqual([]);
  });

  it('should create the data folder readable by its owner only, and leave an existing one as it is', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const secretDir = path.join(parent, 'a', 'data');
      resolveSessionSecret(loadConfig({ DATA_DIR: secretDir }));
      expect((await stat(secretDir)).mode & 0o777).toBe(0o700);
      const dbDir = path.join(parent, 'b', 'data');
      const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: dbDir });
      await db.close();
      expect((await stat(dbDir)).mode & 0o777).toBe(0o700);
      // A folder the operator made keeps its mode.
      const own = path.join(parent, 'own');
      await mkdir(own, { mode: 0o750 });
      await chmod(own, 0o750);
      const again = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: own });
      await again.close();
      expect((await stat(own)).mode & 0o777).toBe(0o750);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('should generate the session secret once, readable only by its owner', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir });
      const first = resolveSessionSecret(config);
      expect(first.length).toBeGreaterThanOrEqual(32);
      expect(resolveSessionSecret(config)).toBe(first);
      const file = path.join(dataDir, 'session-secret');
      expect((await readFile(file, 'utf8')).trim()).toBe(first);
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(
        resolveSessionSecret(loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: 'x'.repeat(40) })),
      ).toBe('x'.repeat(40));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
  it('should say in one line which data folder cannot be made, and why', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      // A file where the data folder should be: no folder can be made inside it.
      const blocker = path.join(dir, 'not-a-folder');
      await writeFile(blocker, '');
      const config = loadConfig({ DATA_DIR: path.join(blocker, 'data') });
      expect(() => resolveSessionSecret(config)).toThrow(StorageError);
      expect(() => resolveSessionSecret(config)).toThrow(
        `The data folder ${path.join(blocker, 'data')} cannot be created (ENOTDIR). ` +
          'DATA_DIR must be a writable folder with free space.',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Found by the eighteenth session's fault probe: under /proc Node's recursive mkdir went round for ever at full CPU
  // (a mistyped DATA_DIR), and a file in the data folder's place was told as a folder that could not be made.
  it('should refuse a data folder under /proc, or a file in its place, in one line', async () => {
    expect(() => makeDataDir('/proc/self/firm-data/x')).toThrow(
      'The data folder /proc/self/firm-data/x cannot be created (ENOENT). DATA_DIR must be a writable folder ' +
        'with free space.',
    );
    const dir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const file = path.join(dir, 'data');
      await writeFile(file, '');
      expect(() => makeDataDir(file)).toThrow(
        `The data folder ${file} cannot be created (EEXIST: a file has its name). DATA_DIR must be a ` +
          'writable folder with free space.',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  // Found by the sixteenth session's fault probe: Node's recursive mkdir says ENOENT for a read-only disk.
  it.skipIf(!canMountTmpfs())(
    'should name a read-only file system as the reason a data folder cannot be made',
    async () => {
      await withTmpfs('ro', '1m', async (mount) => {
        const dataDir = path.join(mount, 'a', 'data');
        const config = loadConfig({ DATA_DIR: dataDir });
        expect(() => resolveSessionSecret(config)).toThrow(
          `The data folder ${dataDir} cannot be created (EROFS). ` +
            'DATA_DIR must be a writable folder with free space.',
        );
        await expect(
          openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }),
        ).rejects.toThrow(`The data folder ${dataDir} cannot be created (EROFS).`);
      });
    },
  );

  // Found by the sixteenth session's fault probe: a full disk while the first start copied the demo media
  // stopped it with a JSON log line and a stack (`ENOSPC: no space left on device, copyfile …`).
  it.skipIf(!canMountTmpfs())(
    'should print a full disk while seeding the demo content as one line, and leave no partial media',
    async () => {
      // Room for the database and the secret, not for the demo clients' media (about 1.1 MB).
      await withTmpfs('rw', '600k', async (mount) => {
        const dataDir = path.join(mount, 'data');
        const result = runServer({ DATA_DIR: dataDir, PORT: '7692' });
        expect(result.status, result.stdout).toBe(1);
        // Where the disk fills depends on the machine (the demo media, or the database before them): one line
        // either way.
        expect(result.stderr.trim(), result.stdout).toMatch(
          /^The server could not start: The (demo content cannot be stored in .+|database cannot be brought up to date): the disk is full \((ENOSPC|SQLITE_FULL)\)\. DATA_DIR must be a writable folder with free space\.$/,
        );
        expect(result.stdout).not.toContain('"stack"');
        const left = spawnSync('find', [path.join(dataDir, 'media'), '-type', 'f'], {
          encoding: 'utf8',
        });
        expect(left.stdout).toBe('');
      });
    },
    120_000,
  );

  // Found by the seventeenth session's fault probe: a kept secret under 32 characters was replaced without a
  // word, through a symbolic link into whatever file it named, keeping that file's mode.
  it('should refuse a kept session secret too short to use, and never write through a link', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const file = path.join(dataDir, 'session-secret');
      const victim = path.join(dataDir, 'victim.txt');
      await writeFile(victim, 'someone else’s short file\n', { mode: 0o644 });
      await symlink(victim, file);
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(() => resolveSessionSecret(config)).toThrow(StorageError);
      expect(() => resolveSessionSecret(config)).toThrow(
        `The session secret in ${file} is too short (25 characters; at least 32). Delete the file to have a ` +
          'new one made (everyone is logged out), or set SESSION_SECRET.',
      );
      expect(await readFile(victim, 'utf8')).toBe('someone else’s short file\n');
      // A link to nowhere is not followed to make a file there either.
      await rm(file);
      await rm(victim);
      await symlink(victim, file);
      expect(() => resolveSessionSecret(config)).toThrow(/cannot be written to .* \(EEXIST\)/);
      await expect(stat(victim)).rejects.toThrow(/ENOENT/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the eighteenth session's fault probe: a link to a long file every user can read (/etc/passwd) was
  // taken as the secret that signs sessions.
  it('should refuse a kept session secret other users can read', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const file = path.join(dataDir, 'session-secret');
      const shared = path.join(dataDir, 'shared.txt');
      await writeFile(shared, `${'x'.repeat(64)}\n`, { mode: 0o644 });
      await chmod(shared, 0o644);
      await symlink(shared, file);
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(() => resolveSessionSecret(config)).toThrow(
        `The session secret in ${file} can be read by other users of this machine (mode 644), who could ` +
          "sign anyone's session with it: make it its owner's alone (chmod 600), or set SESSION_SECRET.",
      );
      await chmod(shared, 0o600);
      expect(resolveSessionSecret(config)).toBe('x'.repeat(64));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the sixteenth session's fault probe: an unreadable session secret stopped the start with a stack.
  it('should say in one line that the kept session secret cannot be read, and keep it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      // A folder where the secret's file should be (read as root, a file's rights would not stop it).
      const file = path.join(dataDir, 'session-secret');
      await mkdir(file);
      const config = loadConfig({ DATA_DIR: dataDir });
      expect(() => resolveSessionSecret(config)).toThrow(StorageError);
      expect(() => resolveSessionSecret(config)).toThrow(
        `The session secret in ${file} cannot be read (EISDIR). It must be a file the server can read, or set ` +
          'SESSION_SECRET.',
      );
      expect((await stat(file)).isDirectory()).toBe(true);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the seventeenth session's API probe: in a data folder the operator made 0755, the database and its
  // -wal and -shm files were created 0644 and the uploads, outbox and media folders 0755.
  it('should create the server’s and the staff tool’s files for their owner only, in a folder open to others', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    await chmod(dataDir, 0o755);
    const server = await startServer({ DATA_DIR: dataDir, PORT: '7693' });
    try {
      const modes = async (names: string[]) =>
        Object.fromEntries(
          await Promise.all(
            names.map(async (name) => [
              name,
              ((await stat(path.join(dataDir, name))).mode & 0o777).toString(8),
            ]),
          ),
        );
      expect(await modes(['portal.sqlite', 'portal.sqlite-wal', 'portal.sqlite-shm'])).toEqual({
        'portal.sqlite': '600',
        'portal.sqlite-wal': '600',
        'portal.sqlite-shm': '600',
      });
      expect(await modes(['media', 'session-secret'])).toEqual({
        media: '700',
        'session-secret': '600',
      });
      // Imported media too, whatever the mode of the file they were copied from (0644 in the repo).
      const media = await readdir(path.join(dataDir, 'media', 'demo'));
      expect(media.length).toBeGreaterThan(0);
      expect(
        new Set(Object.values(await modes(media.map((name) => `media/demo/${name}`)))),
      ).toEqual(new Set(['600']));
      // The staff tool's export, into a new file.
      const out = path.join(dataDir, 'leads.csv');
      const admin = spawnSync(
        process.execPath,
        [
          '--import',
          'tsx/esm',
          path.join(API_DIR, 'src', 'admin.ts'),
          'leads',
          'export',
          '--client',
          'demo',
          '--out',
          out,
        ],
        {
          cwd: API_DIR,
          env: { ...process.env, DATA_DIR: dataDir },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(admin.status, admin.stderr).toBe(0);
      expect((await modes(['leads.csv']))['leads.csv']).toBe('600');
    } finally {
      server.child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the seventeenth session's fault probe: a damaged database stopped the start with a stack.
  it('should name a damaged database file in one line', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const file = path.join(dataDir, 'portal.sqlite');
      await writeFile(file, Buffer.alloc(8192, 0x5a));
      await expect(
        openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }),
      ).rejects.toThrow(
        new StorageError(
          `The database ${file} is damaged or is not a SQLite database (SQLITE_NOTADB). Restore it from a ` +
            'backup; nothing was changed.',
        ),
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the seventeenth session's fault probe: a busy port (or a HOST not of this machine) stopped the start
  // with a JSON line and a stack, and SIGHUP shut the server down with exit code 0.
  it('should print a busy port as one line, and keep running through a SIGHUP', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    try {
      const refused = runServer({ DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1' });
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim()).toBe(
        `The server could not start: another program is already listening on 127.0.0.1:${port}. Set HOST and ` +
          'PORT to an address of this machine that is free.',
      );
      expect(refused.stdout).not.toContain('"stack"');
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
    const { child, ended } = await startServer({ DATA_DIR: dataDir, PORT: String(port) });
    try {
      child.kill('SIGHUP');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect((await fetch(`http://127.0.0.1:${port}/api/demo`)).status).toBe(200);
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
    } finally {
      child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the twenty-third session's staff-tool probe: close-with-grace took SIGILL and SIGTRAP (and the other
  // signals of a crash) for a request to shut down. V8 ends on a fatal error (an answer too large to build) with
  // such an instruction, so the handler returned to it, and the process spun at 100% CPU for ever, answering
  // nobody and deaf to SIGTERM. A crash now ends the process by its signal, for the supervisor to restart it.
  it('should end by the signal of a crash (SIGTRAP, SIGILL, SIGABRT), not shut down as if asked to', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      for (const signal of ['SIGTRAP', 'SIGILL', 'SIGABRT'] as const) {
        const { child, ended } = await startServer({ DATA_DIR: dataDir, PORT: '7696' });
        try {
          child.kill(signal);
          expect(await ended, signal).toBeNull();
          expect(child.signalCode).toBe(signal);
        } finally {
          child.kill('SIGKILL');
        }
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the eighteenth session's fault probe: an IPv6 HOST with a zone this machine does not have printed a
  // JSON line with the stack.
  it('should print a HOST with an unknown IPv6 zone as one line', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const refused = runServer({ DATA_DIR: dataDir, PORT: '7692', HOST: 'fe80::1%nonexistent0' });
      expect(refused.status).toBe(1);
      expect(refused.stderr.trim()).toBe(
        'The server could not start: fe80::1%nonexistent0:7692 cannot be listened on here (an unknown network ' +
          'interface after "%"?). Set HOST and PORT to an address of this machine that is free.',
      );
      expect(refused.stdout).not.toContain('"stack"');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the eighteenth session's fault probe: with its log redirected onto a full disk, the server hung at
  // start-up for good, never listening and deaf to SIGTERM.
  it('should start, serve and stop cleanly with its log on a full disk, saying so once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    const full = openSync('/dev/full', 'w');
    const port = 7693;
    const child = spawn(process.execPath, SERVER_ARGS, {
      cwd: API_DIR,
      env: { ...process.env, DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port) },
      stdio: ['ignore', full, 'pipe'],
    });
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const ended = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      let status = 0;
      for (let i = 0; i < 120 && status !== 200; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        status = await fetch(`http://127.0.0.1:${port}/api/demo`).then(
          (response) => response.status,
          () => 0,
        );
      }
      expect(status).toBe(200);
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
      expect(stderr).toBe(
        'The log cannot be written to standard output (ENOSPC): its lines are dropped until it can be. The ' +
          'server goes on.\n',
      );
    } finally {
      child.kill('SIGKILL');
      closeSync(full);
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the eighteenth session's fault probe: a SIGTERM while the start waited for another process's lock was
  // logged, then waited for, until the grace period ended the process by force with exit code 1.
  it('should stop at once, with exit code 0, on a SIGTERM while the start waits for a lock', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    await (await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null })).close();
    const holder = new Database(path.join(dataDir, 'portal.sqlite'));
    holder.exec('begin immediate');
    holder.exec("update clients set name = name where prefix = ''");
    const { child, ended, until } = spawnServer({ DATA_DIR: dataDir, PORT: '7694' });
    try {
      await until('write lock: waiting up to');
      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await ended).toBe(0);
      expect(Date.now() - signalled).toBeLessThan(5_000);
    } finally {
      child.kill('SIGKILL');
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Left alone by the nineteenth session: until the server's modules had loaded (a second or two), a SIGHUP ended
  // the process with code 129 where later it is ignored, and a SIGTERM ended it by the signal.
  it('should ignore a SIGHUP, and stop with code 0 on a SIGTERM, while its modules load', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    // A loader hook, put in place before the server's entry loads, that holds the loading of the app's module for
    // 1.5 s, saying so on standard error.
    const hooks = `data:text/javascript,${encodeURIComponent(
      `import { writeSync } from 'node:fs';
      let held = false;
      export async function resolve(specifier, context, next) {
        const parent = context.parentURL ?? '';
        if (!held && ['./app.js', './app.ts'].includes(specifier) && (parent.endsWith('/src/server.ts') || parent.endsWith('/src/serve.ts'))) {
          held = true;
          writeSync(2, 'loading the app\\n');
          await new Promise((resolve) => setTimeout(resolve, 1500));
        }
        return next(specifier, context);
      }`,
    )}`;
    const preload = withLoaderHooks(hooks);
    try {
      const hup = spawnServer({ DATA_DIR: dataDir, PORT: '7698' }, ['--import', preload]);
      try {
        await hup.until('loading the app');
        hup.child.kill('SIGHUP');
        await hup.until('Portal at');
      } finally {
        hup.child.kill('SIGTERM');
      }
      expect(await hup.ended).toBe(0);

      const term = spawnServer({ DATA_DIR: dataDir, PORT: '7698' }, ['--import', preload]);
      try {
        await term.until('loading the app');
        term.child.kill('SIGTERM');
        expect(await term.ended).toBe(0);
        expect(term.output.text).not.toContain('Portal at');
      } finally {
        term.child.kill('SIGKILL');
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Left alone by the eighteenth session: an uncaught error while the start waited (here, for another process's
  // lock) began the shutdown, and the start then exited with code 0 once its wait ended.
  it('should end with exit code 1, never listening, after an uncaught error during the start', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    await (await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null })).close();
    const holder = new Database(path.join(dataDir, 'portal.sqlite'));
    holder.exec('begin immediate');
    holder.exec("update clients set name = name where prefix = ''");
    // A module loaded first that throws outside any handler once the file `throw-now` appears (every signal is
    // one close-with-grace listens to).
    const flag = path.join(dataDir, 'throw-now');
    const thrower = `data:text/javascript,${encodeURIComponent(
      `import { existsSync } from 'node:fs';
      const timer = setInterval(() => {
        if (!existsSync(${JSON.stringify(flag)})) return;
        clearInterval(timer);
        throw new Error('thrown during the start');
      }, 20);
      timer.unref();`,
    )}`;
    const { child, output, ended, until } = spawnServer({ DATA_DIR: dataDir, PORT: '7695' }, [
      '--import',
      thrower,
    ]);
    try {
      await until('write lock: waiting up to');
      await writeFile(flag, '');
      await until('Shutting down after an error');
      holder.exec('rollback');
      expect(await ended).toBe(1);
      expect(output.text).toContain('thrown during the start');
      expect(output.text).not.toContain('Portal at');
    } finally {
      child.kill('SIGKILL');
      holder.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the nineteenth session's fault probe: pages overwritten inside the file pass the start's checks (only
  // the header is read then), and every call reading them was a 500 "Internal server error", logged with a stack
  // each time.
  it('should answer 503 in plain words, and say once in the log, when the database is damaged inside', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    const file = path.join(dataDir, 'portal.sqlite');
    const run = () => {
      const server = spawnServer({ DATA_DIR: dataDir, PORT: '7697' });
      return { ...server, listening: server.until('Portal at') };
    };
    const first = run();
    try {
      await first.listening;
    } finally {
      first.child.kill('SIGTERM');
      await first.ended;
    }
    // The content table's first page overwritten: the header and the schema stay readable.
    const db = new Database(file);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const { rootpage } = db
      .prepare("select rootpage from sqlite_schema where name = 'content_items'")
      .get() as { rootpage: number };
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    db.close();
    const fd = openSync(file, 'r+');
    writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
    closeSync(fd);

    const second = run();
    try {
      await second.listening;
      const base = 'http://127.0.0.1:7697/api/demo';
      const login = await fetch(`${base}/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'http://127.0.0.1:7697' },
        body: JSON.stringify({
          first_name: 'A',
          last_name: 'B',
          email: 'a@example.com',
          phone: '1',
        }),
      });
      expect(login.status).toBe(200);
      const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
      for (let i = 0; i < 2; i += 1) {
        const content = await fetch(`${base}/content`, { headers: { cookie } });
        expect(content.status).toBe(503);
        expect(await content.json()).toEqual({
          error:
            'The portal cannot read its data just now. Please try again later, or contact the team.',
        });
      }
      expect(second.output.text.match(/The database file is damaged/g)).toHaveLength(1);
      expect(second.output.text).not.toContain('Request failed');
      // The rest of the portal still answers.
      expect((await fetch(base, { headers: { cookie } })).status).toBe(200);
    } finally {
      second.child.kill('SIGTERM');
      await second.ended;
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  // Found by the nineteenth session's fault probe: an emptied database file (a restore that did not finish) was
  // taken for a new one, seeded and served as a fresh portal beside the files of the earlier one.
  it('should refuse an empty database file beside uploads or media of earlier runs, and take one alone', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const config = { dataDir, databaseUrl: null, databaseSchema: null };
      await writeFile(path.join(dataDir, 'portal.sqlite'), '');
      // A first start stopped before its first write: nothing else there yet.
      await (await openDatabase(config)).close();

      await writeFile(path.join(dataDir, 'portal.sqlite'), '');
      await rm(path.join(dataDir, 'portal.sqlite-wal'), { force: true });
      await mkdir(path.join(dataDir, 'media', 'demo'), { recursive: true });
      await writeFile(path.join(dataDir, 'media', 'demo', 'logo.svg'), '<svg/>');
      const refusal = openDatabase(config);
      await expect(refusal).rejects.toBeInstanceOf(StorageError);
      await expect(refusal).rejects.toThrow(
        `The database ${path.join(dataDir, 'portal.sqlite')} is empty (0 bytes), but media in ${dataDir} hold files of earlier runs`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the twentieth session's fault probe: a missing database beside uploads and media was started as a new
  // portal, and so was an emptied one beside its write-ahead log, whose changes were then written over.
  it('should refuse a missing database beside earlier files, and an emptied one beside its log', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    const file = path.join(dataDir, 'portal.sqlite');
    try {
      const config = { dataDir, databaseUrl: null, databaseSchema: null };
      await mkdir(path.join(dataDir, 'uploads'), { recursive: true });
      await writeFile(path.join(dataDir, 'uploads', 'plans.pdf'), '%PDF-1.4');
      const missing = openDatabase(config);
      await expect(missing).rejects.toBeInstanceOf(StorageError);
      await expect(missing).rejects.toThrow(
        `The database ${file} is missing, but uploads in ${dataDir} hold files of earlier runs`,
      );
      await rm(path.join(dataDir, 'uploads'), { recursive: true });

      // A database in WAL mode is never an empty file: turning WAL on writes its first page.
      const fresh = new Database(file);
      fresh.pragma('journal_mode = WAL');
      fresh.pragma('wal_autocheckpoint = 0');
      fresh.exec('create table t (x); insert into t values (1)');
      expect((await stat(file)).size).toBeGreaterThan(0);
      expect((await stat(`${file}-wal`)).size).toBeGreaterThan(0);

      // Checkpointed, then changed; the file emptied, the log's changes would be lost.
      fresh.pragma('wal_checkpoint(TRUNCATE)');
      fresh.exec('insert into t values (2)');
      const emptied = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
      await writeFile(path.join(emptied, 'portal.sqlite'), '');
      await copyFile(`${file}-wal`, path.join(emptied, 'portal.sqlite-wal'));
      fresh.close();
      const refused = openDatabase({ ...config, dataDir: emptied });
      await expect(refused).rejects.toThrow(
        `The database ${path.join(emptied, 'portal.sqlite')} is empty (0 bytes), but its write-ahead log`,
      );
      expect((await stat(path.join(emptied, 'portal.sqlite-wal'))).size).toBeGreaterThan(0);
      await rm(emptied, { recursive: true, force: true });
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the twentieth session's fault probe: under a low open-file limit, loading the server failed with a
  // Node stack.
  it('should print an open-file limit too low to load the server as one line', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'firm-config-'));
    // A loader hook in place of the server's modules: loading them fails as under a low `ulimit -n` (a real low
    // limit also starves the TypeScript loader these tests run the sources with, at a moment that varies).
    const hooks = `data:text/javascript,${encodeURIComponent(
      `export async function load(url, context, next) {
        if (url.endsWith('/src/serve.ts')) {
          return {
            format: 'module',
            shortCircuit: true,
            source: "throw Object.assign(new Error('EMFILE: too many open files, open x'), { code: 'EMFILE' });",
          };
        }
        return next(url, context);
      }`,
    )}`;
    const preload = withLoaderHooks(hooks);
    try {
      const result = spawnSync(process.execPath, ['--import', preload, ...SERVER_ARGS], {
        cwd: API_DIR,
        env: { ...process.env, DATA_DIR: dataDir, PORT: '7699', HOST: '127.0.0.1' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.stderr).toBe(
        'The server could not start: this process may open no more files (EMFILE). Raise the open-file limit ' +
          '(ulimit -n, or LimitNOFILE= in a systemd unit) to 1024 or more.\n',
      );
      expect(result.status).toBe(1);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);

  // Found by the twenty-fourth session's fault probe: a JSON log line with a stack, naming the file but not its folder.
  it('should print seed content that will not import as one line naming its folder and file', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const contentDir = path.join(dataDir, 'content');
      await cp(path.join(FIXTURE_CONTENT, 'demo'), path.join(contentDir, 'demo'), {
        recursive: true,
      });
      await writeFile(
        path.join(contentDir, 'demo', 'insights', 'broken.md'),
        '---\ntitle: T\nsummary: [unclosed\n---\nBody\n',
      );
      const result = runServer({
        DATA_DIR: path.join(dataDir, 'data'),
        CONTENT_DIR: contentDir,
        PORT: '7679',
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toMatch(
        new RegExp(
          `^The server could not start: The seed content folder ${path.join(contentDir, 'demo').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: insights/broken\\.md: .+ Mend the folder, or set CONTENT_DIR to another \\(the first start imports every client folder there\\)\\.$`,
        ),
      );
      expect(result.stdout).not.toContain('"stack"');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('should print an unreachable PostgreSQL at start as one line, without a stack or the password', async () => {
    // Found by the tenth session's PostgreSQL probe: a JSON log line with a stack, unlike the storage failures.
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const result = runServer({
        DATA_DIR: dataDir,
        // Port 1 on this machine: nothing listens, the connection is refused at once.
        DATABASE_URL: 'postgres://portal:hunter2-secret@127.0.0.1:1/portal',
        PORT: '7691',
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        'The server could not start: PostgreSQL at 127.0.0.1:1 cannot be reached: nothing accepts connections ' +
          'there (ECONNREFUSED). DATABASE_URL must name a running PostgreSQL server this machine can reach.',
      );
      expect(result.stdout).not.toContain('"stack"');
      expect(result.stdout + result.stderr).not.toContain('hunter2');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the twenty-fifth session's PostgreSQL probe: with DATABASE_SCHEMA, a database host name that does not
  // resolve was blamed on HOST and PORT ("the host name in 127.0.0.1:7694 cannot be resolved").
  it('should blame an unresolvable PostgreSQL host name on DATABASE_URL, not on HOST and PORT', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const result = runServer({
        DATA_DIR: dataDir,
        DATABASE_URL: 'postgres://portal:hunter2-secret@nonexistent.invalid:5433/portal',
        DATABASE_SCHEMA: 'portal',
        PORT: '7694',
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toMatch(
        /^The server could not start: PostgreSQL at nonexistent\.invalid:5433 cannot be reached: its host name cannot be resolved \((ENOTFOUND|EAI_AGAIN)\)\. DATABASE_URL must name a running PostgreSQL server this machine can reach\.$/,
      );
      expect(result.stdout).not.toContain('"stack"');
      expect(result.stdout + result.stderr).not.toContain('hunter2');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the twenty-fifth session's PostgreSQL probe: a JSON log line with a stack, "Database migration  failed:
  // The server does not support SSL connections: The server does not support SSL connections".
  it('should print a PostgreSQL that refuses SSL as one line, without a stack or the password', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    // A server that answers PostgreSQL's SSLRequest with "N" (no SSL), as one without SSL configured does.
    const sockets = new Set<Socket>();
    const noSsl = createNetServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => socket.write('N'));
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => noSsl.listen(0, '127.0.0.1', resolve));
    const { port } = noSsl.address() as AddressInfo;
    try {
      const result = await runServerAsync({
        DATA_DIR: dataDir,
        DATABASE_URL: `postgres://portal:hunter2-secret@127.0.0.1:${port}/portal?sslmode=verify-full`,
        PORT: '7695',
      });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        `The server could not start: PostgreSQL at 127.0.0.1:${port} does not accept SSL connections, and ` +
          'DATABASE_URL asks for one (sslmode). Turn SSL on in PostgreSQL, or change sslmode.',
      );
      expect(result.stdout).not.toContain('"stack"');
      expect(result.stdout + result.stderr).not.toContain('hunter2');
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => noSsl.close(resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  // Found by the twenty-fifth session's PostgreSQL probe: a JSON log line with a stack, "Database migration  failed:
  // password authentication failed for user "firm": password authentication failed for user "firm"".
  it.skipIf(process.env.TEST_DATABASE_URL === undefined)(
    'should print a PostgreSQL that refuses the login or has no such database as one line (postgres)',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      const host = `${url.hostname}:${url.port || '5432'}`;
      const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
      try {
        const wrongPassword = new URL(url);
        wrongPassword.password = 'hunter2-wrong';
        const noDatabase = new URL(url);
        noDatabase.pathname = '/firm_no_such_database';
        for (const [at, schema, said] of [
          [
            wrongPassword,
            null,
            `PostgreSQL at ${host} refused the login for user "${decodeURIComponent(url.username)}" (password ` +
              'authentication failed). DATABASE_URL must give a user and password it accepts.',
          ],
          [
            noDatabase,
            'portal',
            `PostgreSQL at ${host} has no database "firm_no_such_database". DATABASE_URL must name a database ` +
              'that exists there (the server makes its schema and tables, not the database: createdb).',
          ],
        ] as const) {
          const result = runServer({
            DATA_DIR: dataDir,
            DATABASE_URL: at.toString(),
            ...(schema === null ? {} : { DATABASE_SCHEMA: schema }),
            PORT: '7696',
          });
          expect(result.status).toBe(1);
          expect(result.stderr.trim()).toBe(`The server could not start: ${said}`);
          expect(result.stdout).not.toContain('"stack"');
          expect(result.stdout + result.stderr).not.toContain('hunter2');
        }
      } finally {
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  // Found by the twenty-sixth session: a user without CREATE on the schema got a JSON log line with a stack.
  it.skipIf(process.env.TEST_DATABASE_URL === undefined)(
    'should print a PostgreSQL user without the right to create the tables as one line (postgres)',
    async () => {
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      const user = decodeURIComponent(url.username);
      const host = `${url.hostname}:${url.port || '5432'}`;
      // Named as this run's schemas are (`createPgSchema`), so that it is dropped with them once every file has
      // finished: dropped here, it disappeared while other files' migrations read every schema, which failed them
      // with "schema … does not exist" (a fresh-clone CI run of the twenty-eighth session).
      const schema = `t_${inject('pgRunId')}_no_create_${process.pid}`;
      const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        // Its owner's own CREATE taken back: the schema is there, and no table may be made in it.
        await client.query(`create schema "${schema}"`);
        await client.query(`revoke create on schema "${schema}" from "${user}"`);
        const result = runServer({
          DATA_DIR: dataDir,
          DATABASE_URL: url.toString(),
          DATABASE_SCHEMA: schema,
          PORT: '7696',
        });
        expect(result.status).toBe(1);
        expect(result.stderr.trim()).toBe(
          `The server could not start: PostgreSQL at ${host} refused user "${user}" a right the portal needs ` +
            `(permission denied for schema ${schema}). It must be allowed to create tables in schema ` +
            `"${schema}": make it the schema's owner, or GRANT CREATE ON SCHEMA "${schema}" TO "${user}".`,
        );
        expect(result.stdout).not.toContain('"stack"');
      } finally {
        await client.end();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  );

  // Found by the twenty-fifth session's PostgreSQL probe: "Database migration  failed: X: X", two spaces where the
  // migration's name goes, and the cause's message twice (the log adds it to the error's own).
  it('should log a migration that fails once with its name and its cause, said once', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      // A database whose first migration cannot run: its first table is there already.
      const stray = new Database(path.join(dataDir, 'portal.sqlite'));
      stray.exec('create table clients (id text)');
      stray.close();
      const result = runServer({ DATA_DIR: dataDir, PORT: '7697' });
      expect(result.status).toBe(1);
      const line = result.stdout.split('\n').find((text) => text.includes('could not start'));
      const { err } = JSON.parse(line ?? '{}') as { err?: { message?: string } };
      expect(err?.message).toBe(
        `Database migration ${Object.keys(migrations)[0] ?? ''} failed: table "clients" already exists`,
      );
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('should print a storage failure at start as one line, without a stack', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'firm-config-'));
    try {
      const blocker = path.join(dir, 'not-a-folder');
      await writeFile(blocker, '');
      const result = runServer({ DATA_DIR: path.join(blocker, 'data'), PORT: '7690' });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        `The server could not start: The data folder ${path.join(blocker, 'data')} cannot be created (ENOTDIR). ` +
          'DATA_DIR must be a writable folder with free space.',
      );
      expect(result.stdout).not.toContain('"stack"');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
