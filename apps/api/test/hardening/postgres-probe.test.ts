import net from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import SqliteDatabase from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DATABASE_UNAVAILABLE,
  databaseHost,
  isDatabaseUnavailable,
  postgresProblem,
} from '../../src/db/unavailable.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { openDatabase } from '../../src/db/connect.js';
import {
  PERSON,
  buildTestApp,
  createPgSchema,
  databases,
  lockPgTable,
  loginOpen,
  type TestApp,
} from '../helper.js';

/**
 * Found by a black-box run of the built server on PostgreSQL (two instances on one database, the database
 * stopped and started under load, a lock held from outside). A database that is down answered every request
 * 500 "Internal server error", and one that was up but stuck held every request for ever: the ones that
 * reached the stuck table, then, once they had taken the pool's connections, all the others too. Now the wait
 * is bounded (DATABASE_TIMEOUT_MS: a connection, then each statement) and the answer is 503 `{ error }` with
 * `Retry-After`; the next requests work as soon as the database does.
 */

/** Settles within `ms` or says it did not: a request that hangs fails the test instead of stalling it. */
async function within<T>(ms: number, work: Promise<T>): Promise<T | 'hung'> {
  return Promise.race([work, sleep(ms).then(() => 'hung' as const)]);
}

function expectUnavailable(answer: LightMyRequestResponse | 'hung'): void {
  expect(answer).not.toBe('hung');
  if (answer === 'hung') return;
  expect({ status: answer.statusCode, body: answer.json<unknown>() }).toEqual({
    status: 503,
    body: { error: DATABASE_UNAVAILABLE },
  });
  expect(answer.headers['retry-after']).toBe('5');
  expect(answer.headers['cache-control']).toBe('no-store');
}

// Found by the twenty-fifth session's PostgreSQL probe: only an unreachable server was said in plain words, at the
// server's start; a refused login or a missing database printed a stack there, and "Failed: Database migration
// failed: …" in the staff tool, which blamed another process's write lock on any PostgreSQL out of reach.
describe('what is said of a PostgreSQL that cannot be used', () => {
  const url = 'postgres://portal:hunter2@db.internal:5433/portal';
  const coded = (message: string, fields: Record<string, string>) =>
    Object.assign(new Error(message), fields);
  it.each([
    [
      'a wrong password',
      coded('password authentication failed for user "portal"', { code: '28P01' }),
      'PostgreSQL at db.internal:5433 refused the login for user "portal" (password authentication failed). ' +
        'DATABASE_URL must give a user and password it accepts.',
    ],
    [
      'a login pg_hba.conf does not allow',
      coded('no pg_hba.conf entry for host "10.0.0.5", user "portal", database "portal", SSL off', {
        code: '28000',
      }),
      'PostgreSQL at db.internal:5433 refused the login (no pg_hba.conf entry for host "10.0.0.5", user ' +
        '"portal", database "portal", SSL off). DATABASE_URL must give a user it lets in from this machine ' +
        '(pg_hba.conf).',
    ],
    [
      'no password given',
      new Error('SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string'),
      'PostgreSQL at db.internal:5433 asks for a password, and DATABASE_URL gives none.',
    ],
    [
      'no such database, as the migrations wrap it',
      new Error('Database migration failed', {
        cause: coded('database "portal" does not exist', { code: '3D000' }),
      }),
      'PostgreSQL at db.internal:5433 has no database "portal". DATABASE_URL must name a database that exists ' +
        'there (the server makes its schema and tables, not the database: createdb).',
    ],
    [
      'SSL refused',
      new Error('The server does not support SSL connections'),
      'PostgreSQL at db.internal:5433 does not accept SSL connections, and DATABASE_URL asks for one (sslmode). ' +
        'Turn SSL on in PostgreSQL, or change sslmode.',
    ],
    [
      'a certificate not trusted',
      coded('self-signed certificate', { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' }),
      'PostgreSQL at db.internal:5433 sent a TLS certificate this machine does not trust ' +
        '(DEPTH_ZERO_SELF_SIGNED_CERT). Give PostgreSQL a certificate this machine trusts, or name its authority ' +
        'in DATABASE_URL (sslrootcert).',
    ],
    [
      'a refused connection',
      coded('connect ECONNREFUSED 10.0.0.9:5433', { code: 'ECONNREFUSED', syscall: 'connect' }),
      'PostgreSQL at db.internal:5433 cannot be reached: nothing accepts connections there (ECONNREFUSED). ' +
        'DATABASE_URL must name a running PostgreSQL server this machine can reach.',
    ],
    [
      'a server starting up',
      coded('the database system is starting up', { code: '57P03' }),
      'PostgreSQL at db.internal:5433 cannot be reached or is not answering (the database system is starting ' +
        'up). DATABASE_URL must name a running PostgreSQL server this machine can reach.',
    ],
    [
      'a user without CREATE on the schema, as the migrations wrap it',
      new Error('Database migration failed', {
        cause: coded('permission denied for schema public', { code: '42501' }),
      }),
      'PostgreSQL at db.internal:5433 refused user "portal" a right the portal needs (permission denied for ' +
        'schema public). It must be allowed to create tables in schema "public": make it the schema\'s owner, ' +
        'or GRANT CREATE ON SCHEMA "public" TO "portal".',
    ],
    [
      'a user without CREATE on the database, for DATABASE_SCHEMA',
      coded('permission denied for database portal', { code: '42501' }),
      'PostgreSQL at db.internal:5433 refused user "portal" a right the portal needs (permission denied for ' +
        'database portal). It must be allowed to create the schema DATABASE_SCHEMA names in database "portal": ' +
        'GRANT CREATE ON DATABASE "portal" TO "portal", or create the schema with "portal" as its owner.',
    ],
    [
      'a user without rights on a table',
      coded('permission denied for table clients', { code: '42501' }),
      'PostgreSQL at db.internal:5433 refused user "portal" a right the portal needs (permission denied for ' +
        "table clients). It must be allowed to own the portal's schema and tables, or be granted rights on them " +
        '(SELECT, INSERT, UPDATE and DELETE on every table, USAGE on every sequence: GRANT … ON ALL TABLES IN ' +
        'SCHEMA …, GRANT USAGE ON ALL SEQUENCES IN SCHEMA …).',
    ],
  ])('should say %s in plain words, naming the server', (_name, error, said) => {
    expect(postgresProblem(url, error)).toBe(said);
  });
  it.each([
    ['a fault in the code', new TypeError('x is undefined')],
    ['a migration that failed', coded('relation "clients" already exists', { code: '42P07' })],
    ['not an error', 'ECONNREFUSED'],
  ])('should leave %s to the log', (_name, error) => {
    expect(postgresProblem(url, error)).toBeUndefined();
  });
  it('should name the host and port only, whatever the URL holds', () => {
    expect(databaseHost('postgres://portal:hunter2@db.internal/portal')).toBe('db.internal:5432');
    expect(databaseHost('postgres:///portal?host=/var/run/postgresql')).toBe(
      '/var/run/postgresql:5432',
    );
    expect(databaseHost('postgresql://[::1]:6432/portal')).toBe('[::1]:6432');
  });
});

// Found by the twenty-sixth session's probe: a user granted only SELECT started the server, which then answered every
// login and submission 500 "Internal server error" (SQLite's start proves the file takes a write).
describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'a PostgreSQL user that may not write the portal’s tables (postgres)',
  () => {
    it('should stop the server’s start in one line naming the table, and let the staff tool read', async () => {
      const url = process.env.TEST_DATABASE_URL ?? '';
      const parsed = new URL(url);
      const user = decodeURIComponent(parsed.username);
      const { schema } = await createPgSchema(url);
      const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-pg-readonly-'));
      const config = { databaseUrl: url, databaseSchema: schema, dataDir };
      await (await openDatabase(config)).close();
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        // The owner's own INSERT on one table taken back.
        await client.query(`revoke insert on "${schema}".sessions from "${user}"`);
        await (await openDatabase(config)).close();
        const error: unknown = await openDatabase(config, undefined, { mustWrite: true }).then(
          (db) => db.close(),
          (refused: unknown) => refused,
        );
        expect(postgresProblem(url, error)).toBe(
          `PostgreSQL at ${parsed.hostname}:${parsed.port || '5432'} refused user "${user}" a right the portal ` +
            'needs (permission denied for table sessions (it may not insert)). It must be allowed to own the ' +
            "portal's schema and tables, or be granted rights on them (SELECT, INSERT, UPDATE and DELETE on every " +
            'table, USAGE on every sequence: GRANT … ON ALL TABLES IN SCHEMA …, GRANT USAGE ON ALL SEQUENCES IN ' +
            'SCHEMA …).',
        );
        await client.query(`grant insert on "${schema}".sessions to "${user}"`);
        await (await openDatabase(config, undefined, { mustWrite: true })).close();
      } finally {
        // The schema is this run's (`createPgSchema`), dropped with the others once every file has finished: dropped
        // here, it disappeared while other files' migrations read every schema, which failed them with "schema …
        // does not exist" (a fresh-clone CI run of the twenty-eighth session).
        await client.end();
        await rm(dataDir, { recursive: true, force: true });
      }
    });
  },
);

/** Holds a write lock on the app's database from another connection, as a staff tool or a DBA would. */
async function holdWriteLock(t: TestApp, table: string): Promise<() => Promise<void>> {
  if (t.config.databaseUrl === null) {
    const other = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    other.exec('begin immediate');
    return () => {
      other.exec('rollback');
      other.close();
      return Promise.resolve();
    };
  }
  return lockPgTable(t.config.databaseUrl, t.config.databaseSchema ?? 'public', table);
}

describe('which errors mean the database is unavailable', () => {
  const coded = (message: string, fields: Record<string, string>) =>
    Object.assign(new Error(message), fields);
  it.each([
    [
      'PostgreSQL not listening',
      coded('connect ECONNREFUSED 127.0.0.1:5432', { code: 'ECONNREFUSED', syscall: 'connect' }),
    ],
    [
      'PostgreSQL shutting down',
      coded('terminating connection due to administrator command', { code: '57P01' }),
    ],
    ['PostgreSQL starting up', coded('the database system is starting up', { code: '57P03' })],
    [
      'a statement timeout',
      coded('canceling statement due to statement timeout', { code: '57014' }),
    ],
    [
      'a transaction ended for standing idle',
      coded('terminating connection due to idle-in-transaction timeout', { code: '25P03' }),
    ],
    ['no free connection in time', new Error('timeout exceeded when trying to connect')],
    [
      'a connection cut mid-statement',
      coded('read ECONNRESET', { code: 'ECONNRESET', syscall: 'read' }),
    ],
    ['a connection exception (class 08)', coded('connection failure', { code: '08006' })],
    ['SQLite busy past its timeout', coded('database is locked', { code: 'SQLITE_BUSY' })],
    [
      'a wrapped cause',
      new Error('Database migration failed', { cause: new Error('timeout expired') }),
    ],
  ])('should count %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });
  it.each([
    ['a fault in the code', new TypeError('x is undefined')],
    ['a constraint PostgreSQL enforces', coded('duplicate key value', { code: '23505' })],
    ['the request’s own client going away', coded('aborted', { code: 'ECONNRESET' })],
    ['a value out of range', coded('value out of range for type integer', { code: '22003' })],
    ['not an error', 'ECONNREFUSED'],
  ])('should not count %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe.each(databases)('a write held up by another connection’s lock ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target, { DATABASE_TIMEOUT_MS: '400' });
    cookie = await loginOpen(t.app, 'demo');
  });
  afterAll(async () => {
    await t.close();
  });

  // SQLite gives up after its busy timeout (5 s); PostgreSQL waited for ever before.
  it('should answer 503 with Retry-After, then take the write once the lock is gone', async () => {
    const release = await holdWriteLock(t, 'activity');
    let answer: LightMyRequestResponse | 'hung';
    try {
      answer = await within(
        10_000,
        t.app.inject({
          method: 'POST',
          url: '/api/demo/activity',
          headers: { cookie },
          payload: { action: 'view', item: 'dashboard' },
        }),
      );
    } finally {
      await release();
    }
    expectUnavailable(answer);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/demo/activity',
      headers: { cookie },
      payload: { action: 'view', item: 'dashboard' },
    });
    expect(again.statusCode).toBe(204);
  });
});

describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'a PostgreSQL that is stuck or stopped (postgres)',
  () => {
    const url = process.env.TEST_DATABASE_URL ?? '';

    describe('more requests stuck behind a lock than the pool has connections', () => {
      let t: TestApp;
      let cookie: string;
      beforeAll(async () => {
        // The helper's pool has 3 connections.
        t = await buildTestApp({ name: 'postgres', url }, { DATABASE_TIMEOUT_MS: '500' });
        cookie = await loginOpen(t.app, 'demo');
      });
      afterAll(async () => {
        await t.close();
      });

      it('should answer every request 503 in bounded time, the ones that need no lock too', async () => {
        // Every request with a session reads the sessions table.
        const release = await holdWriteLock(t, 'sessions');
        let answers: (LightMyRequestResponse | 'hung')[];
        try {
          const stuck = Array.from({ length: 8 }, () =>
            within(
              8_000,
              t.app.inject({ method: 'GET', url: '/api/demo/content', headers: { cookie } }),
            ),
          );
          await sleep(50);
          // No session: it only waits for a connection the stuck ones hold.
          const bystander = within(8_000, t.app.inject({ method: 'GET', url: '/api/northbank' }));
          answers = await Promise.all([...stuck, bystander]);
        } finally {
          await release();
        }
        const bystanderAnswer = answers.pop();
        for (const answer of answers) expectUnavailable(answer);
        // It needs no locked table: served if a connection came free in time, else refused; never held.
        expect(bystanderAnswer).not.toBe('hung');
        if (bystanderAnswer !== 'hung' && bystanderAnswer?.statusCode !== 200) {
          expectUnavailable(bystanderAnswer ?? 'hung');
        }
        const content = await t.app.inject({
          method: 'GET',
          url: '/api/demo/content',
          headers: { cookie },
        });
        expect(content.statusCode).toBe(200);
      });
    });

    describe('the database stopped, then started again', () => {
      let t: TestApp;
      let cookie: string;
      let proxy: net.Server;
      let proxyPort = 0;
      const sockets = new Set<net.Socket>();

      /** A TCP relay to PostgreSQL that the test can take down and bring back on the same port. */
      async function startProxy(): Promise<void> {
        proxy = net.createServer((client) => {
          // Read here, not where the suite is declared: without TEST_DATABASE_URL it is skipped, yet still collected.
          const target = new URL(url);
          const server = net.connect(Number(target.port || 5432), target.hostname);
          for (const socket of [client, server]) {
            sockets.add(socket);
            socket.on('close', () => sockets.delete(socket));
            socket.on('error', () => undefined);
          }
          client.pipe(server).pipe(client);
        });
        await new Promise<void>((resolve) => proxy.listen(proxyPort, '127.0.0.1', resolve));
        const address = proxy.address();
        proxyPort = typeof address === 'object' && address !== null ? address.port : 0;
      }
      /** As `pg_ctlcluster … stop -m fast`: every connection cut, new ones refused. */
      async function stopProxy(): Promise<void> {
        const closed = new Promise<void>((resolve) => proxy.close(() => resolve()));
        for (const socket of sockets) socket.destroy();
        await closed;
      }

      beforeAll(async () => {
        await startProxy();
        const viaProxy = new URL(url);
        viaProxy.host = `127.0.0.1:${String(proxyPort)}`;
        t = await buildTestApp(
          { name: 'postgres', url: viaProxy.toString() },
          { DATABASE_TIMEOUT_MS: '1000' },
        );
        cookie = await loginOpen(t.app, 'demo');
      });
      afterAll(async () => {
        if (proxy.listening) await t.close();
        else {
          await startProxy();
          await t.close();
        }
        await stopProxy();
      });

      it('should answer 503 while it is down and work again once it is back', async () => {
        const requests = () => [
          t.app.inject({ method: 'GET', url: '/api/demo' }),
          t.app.inject({ method: 'GET', url: '/api/demo/content', headers: { cookie } }),
          t.app.inject({ method: 'POST', url: '/api/demo/login', payload: PERSON }),
          t.app.inject({
            method: 'POST',
            url: '/api/demo/warranty',
            headers: { cookie },
            payload: {
              build_type: 'New Build',
              stageType: 'Not Started',
              units: 3,
              build_value: 1_000_000,
              GDV: 2_000_000,
              name: 'Ada Lovelace',
              telephone: '020 7946 0123',
              email: 'ada@example.com',
            },
          }),
        ];
        await stopProxy();
        const down = await Promise.all(requests().map((request) => within(8_000, request)));
        for (const answer of down) expectUnavailable(answer);

        await startProxy();
        const back = await Promise.all(requests());
        expect(back.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 201]);
      });
    });
  },
);

// Found by the thirtieth session's run of the PostgreSQL suite on a loaded machine: the start's migrations ran on
// the requests' connections, under DATABASE_TIMEOUT_MS, and a start that waited longer than that (another instance
// migrating, a slow first look at the tables) failed "canceling statement due to statement timeout".
describe.each(databases.filter(({ url }) => url !== null))(
  'a start waiting for another process on the migrations’ table ($name)',
  (target) => {
    it('should wait as the start does, not as a request does, and then start', async () => {
      const first = await buildTestApp(target);
      const schema = first.config.databaseSchema as string;
      await first.close();
      const release = await lockPgTable(target.url as string, schema, 'kysely_migration');
      const released = sleep(1_500).then(release);
      try {
        const second = await buildTestApp(target, {
          DATABASE_SCHEMA: schema,
          DATABASE_TIMEOUT_MS: '200',
        });
        await released;
        const answer = await second.app.inject({ method: 'GET', url: '/api/demo' });
        expect(answer.statusCode).toBe(200);
        await second.close();
      } finally {
        await released;
      }
    }, 30_000);
  },
);
