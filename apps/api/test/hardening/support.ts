import { readdir } from 'node:fs/promises';
import { connect, type AddressInfo, type Socket } from 'node:net';
import path from 'node:path';
import type SqliteDatabase from 'better-sqlite3';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { expect, vi } from 'vitest';
import app, { serverOptions } from '../../src/app.js';
import { multipart, pdf, type TestApp } from '../helper.js';

export { multipart, pdf, type FilePart } from '../helper.js';

/** Runs per property: at least 100 in CI, 1,000 with FUZZ_RUNS=1000 or HARDENING_FULL=1. */
export const FUZZ_RUNS = (() => {
  const raw = process.env.FUZZ_RUNS;
  if (raw !== undefined && raw !== '') {
    const runs = Number(raw);
    if (!Number.isSafeInteger(runs) || runs < 1)
      throw new Error(`FUZZ_RUNS must be a whole number (got "${raw}")`);
    return runs;
  }
  return process.env.HARDENING_FULL === '1' ? 1000 : 100;
})();

/** fast-check's parameters: FUZZ_SEED replays a failure fast-check printed. */
export const FUZZ_PARAMS = {
  numRuns: FUZZ_RUNS,
  ...(process.env.FUZZ_SEED ? { seed: Number(process.env.FUZZ_SEED) } : {}),
};

/** Longer runs need longer timeouts (milliseconds per property). */
export const FUZZ_TIMEOUT = 30_000 + FUZZ_RUNS * 150;

export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

export interface RouteEntry {
  /** Fastify's pattern, e.g. `/api/:client/article`. */
  url: string;
  method: Method;
}

/**
 * The app's own route table, read from `printRoutes()` (so a route added tomorrow is in every matrix
 * without anyone listing it here). HEAD twins of GET routes are included.
 */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const text = app.printRoutes({ commonPrefix: false });
  const stack: { depth: number; url: string }[] = [];
  const entries: RouteEntry[] = [];
  for (const line of text.split('\n')) {
    const match = /^([\s│]*)(?:[├└]── )?(\S+)(?: \(([A-Z, ]+)\))?\s*$/.exec(line);
    if (match === null) continue;
    const indent = (match[1] ?? '').length;
    const segment = match[2] ?? '';
    while (stack.length > 0 && (stack.at(-1)?.depth ?? 0) >= indent) stack.pop();
    const parent = stack.at(-1)?.url ?? '';
    const url =
      parent === ''
        ? segment
        : `${parent.replace(/\/$/, '')}${segment.startsWith('/') ? '' : '/'}${segment}`;
    stack.push({ depth: indent, url });
    for (const method of (match[3] ?? '').split(',').map((m) => m.trim())) {
      if (method !== '') entries.push({ url, method: method as Method });
    }
  }
  return entries;
}

/** Routes documented as needing no session (decisions.md §2, apicontract). Everything else needs one. */
export const PUBLIC_ROUTES = new Set([
  'GET /',
  'HEAD /',
  'GET /index.html',
  'HEAD /index.html',
  'GET /*',
  'HEAD /*',
  'GET /api/openapi.json',
  'HEAD /api/openapi.json',
  'GET /api/:client',
  'HEAD /api/:client',
  'POST /api/:client/login',
  'GET /api/:client/login/link',
  'HEAD /api/:client/login/link',
  'POST /api/:client/login/link',
  'GET /api/:client/logout',
]);

export const routeKey = (route: RouteEntry) => `${route.method} ${route.url}`;

/** Routes that answer with a redirect (3xx) on success, by contract. */
export const REDIRECTING = new Set([
  'GET /',
  'HEAD /',
  'GET /index.html',
  'HEAD /index.html',
  'POST /api/:client/login/link',
  'GET /api/:client/logout',
  'POST /api/:client/due-diligence',
]);

/** Routes whose refusals are HTML pages by contract (the login link is opened by a person in a browser). */
export const HTML_ERRORS = new Set([
  'GET /api/:client/login/link',
  'HEAD /api/:client/login/link',
  'POST /api/:client/login/link',
]);

/** A body each route would accept from a logged-in demo user (so fuzzing starts from something real). */
export const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'POST /api/:client/login': {
    first_name: 'Ada',
    last_name: 'Lovelace',
    email: 'ada@example.com',
    phone: '020 7946 0123',
  },
  'POST /api/:client/login/link': { token: 'A'.repeat(43) },
  'POST /api/:client/activity': { action: 'view', item: 'dashboard' },
  'POST /api/:client/warranty': {
    build_type: 'New Build',
    stageType: 'Not Started',
    units: 1,
    build_value: 500000,
    GDV: 500000,
    name: 'A',
    telephone: '1',
    email: 'a@example.com',
  },
  'POST /api/:client/btr': {
    stage: 'Not Started',
    units: 50,
    sum_insured: 8000000,
    GDV: 20000000,
    includeRentCoverLoss: true,
    anticipatedRentalIncome: 1200000,
    term: 24,
    programmeMonths: 18,
    name: 'A',
    email: 'a@example.com',
    contact_number: '1',
  },
  'POST /api/:client/car': {
    propertyType: 'New Build Residential',
    contractWorksValue: 500000,
    name: 'A',
    telephone: '1',
    email: 'a@example.com',
  },
};

export const DUE_DILIGENCE_FIELDS: Record<string, string> = {
  SingleLine: 'Harbour Quay',
  SingleLine1: '1 Quay Street',
  SingleLine2: 'Portsmouth PO1 1AA',
  SingleLine3: 'Sixty-four apartments over a basement car park.',
  Currency1: '12500000',
  Currency2: '21000000',
  Currency: '9000000',
  Email: 'ada@example.com',
  SingleLine4: 'Ada Lovelace',
};

/** A valid query string per GET route (without the leading `?`). */
export const VALID_QUERIES: Record<string, string> = {
  'GET /api/:client/content': 'search=warranty',
  'GET /api/:client/article': 'id=harbour-quay&type=case_study',
  'GET /api/:client/login/link': `token=${'A'.repeat(43)}`,
};

/**
 * A valid request for a route of the table: the client prefix in its path, its valid query (or `query`) and
 * body, a due-diligence form with a small PDF, and `file` for a media route's `:file`.
 */
export function validRequest(
  route: RouteEntry,
  prefix: string,
  cookie: string | undefined,
  { file, query }: { file?: string | undefined; query?: string | undefined } = {},
) {
  const key = routeKey(route);
  let url = route.url
    .replace(':client', prefix)
    .replace(':file', file ?? 'x')
    .replace('*', 'x');
  const q = query ?? VALID_QUERIES[key] ?? VALID_QUERIES[key.replace(/^HEAD /, 'GET ')];
  if (q !== undefined) url += `?${q}`;
  const headers: Record<string, string> = cookie === undefined ? {} : { cookie };
  if (key === 'POST /api/:client/due-diligence') {
    const form = multipart(
      { ...DUE_DILIGENCE_FIELDS, SingleLine: 'Tenancy probe' },
      { filename: 'probe.pdf', content: pdf(512) },
    );
    return {
      method: route.method,
      url,
      payload: form.payload,
      headers: { ...headers, ...form.headers },
    };
  }
  const body =
    route.method === 'GET' || route.method === 'HEAD' ? undefined : (VALID_BODIES[key] ?? {});
  return { method: route.method, url, headers, ...(body === undefined ? {} : { payload: body }) };
}

/** Every file under `dir` (relative paths), walking sub-folders. */
export async function walk(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      for (const inner of await walk(full)) files.push(path.join(entry.name, inner));
    } else {
      files.push(entry.name);
    }
  }
  return files.sort();
}

/**
 * The API's error contract for one answer: never 5xx; a refusal is a 4xx with `{ error: string }` as JSON
 * (HTML for the login link's pages, which a person opens in a browser); 3xx only where the contract redirects.
 */
export function expectContractAnswer(
  response: LightMyRequestResponse,
  key: string,
  context: string,
  method: string,
): void {
  const status = response.statusCode;
  expect(status, `${context}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (status >= 200 && status < 300) return;
  if (status >= 300 && status < 400) {
    expect(REDIRECTING.has(key), `${context}: unexpected redirect ${status}`).toBe(true);
    expect(response.headers.location, context).toMatch(/^\/[a-z0-9]/);
    return;
  }
  expect(status, context).toBeGreaterThanOrEqual(400);
  if (method === 'HEAD') return;
  if (HTML_ERRORS.has(key) && String(response.headers['content-type']).startsWith('text/html')) {
    expect(response.body, context).toContain('</html>');
    return;
  }
  expect(String(response.headers['content-type']), context).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as unknown;
  expect(body, context).toEqual({ error: expect.any(String) });
  expect((body as { error: string }).error.length, context).toBeGreaterThan(0);
}

/** A year no counter of the app's uses, so the other connection's rows never meet the app's. */
let otherCommitYear = 3000;

/**
 * Has `other` (a second connection to the app's SQLite file, as the staff tool or another instance holds) try to
 * commit a row just before the app's connection runs any statement naming `table`, in the app's own thread, and
 * counts the tries, the commits and the tries refused with SQLITE_BUSY (give `other` a busy_timeout of 0: a try
 * the app's write lock refuses is that lock doing its work, see db/sqlite-dialect.ts). Undo with
 * `vi.restoreAllMocks()`.
 */
export function commitElsewhereBefore(other: SqliteDatabase.Database, table: string) {
  const statement = Object.getPrototypeOf(other.prepare('select 1')) as {
    run: (...args: unknown[]) => unknown;
    all: (...args: unknown[]) => unknown;
    get: (...args: unknown[]) => unknown;
  };
  const seen = { tries: 0, commits: 0, refused: 0 };
  for (const method of ['run', 'all', 'get'] as const) {
    const original = statement[method];
    vi.spyOn(statement, method).mockImplementation(function (
      this: { source: string; database: unknown },
      ...args: unknown[]
    ) {
      if (this.database !== other && this.source.includes(`"${table}"`)) {
        seen.tries += 1;
        try {
          other
            .prepare("insert into sequences (client_id, kind, year, value) values ('c', 'S', ?, 1)")
            .run((otherCommitYear += 1));
          seen.commits += 1;
        } catch (error) {
          if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
          seen.refused += 1;
        }
      }
      return original.apply(this, args);
    });
  }
  return seen;
}

/** A second instance of the app on the test app's database and data folder (as behind one load balancer). */
export async function secondInstance(t: TestApp): Promise<FastifyInstance> {
  const other = Fastify({ ...serverOptions(t.config), logger: false });
  await other.register(app, { config: t.config, clock: t.clock.now });
  await other.ready();
  return other;
}

/**
 * Sends raw bytes on a new connection to 127.0.0.1:`port` and gives back everything the server sends until it
 * closes (as UTF-8). The connection is ended after the write unless `hold` (the server must close it then);
 * `after` runs once the bytes are written (to send more later, say).
 */
export function rawExchange(
  port: number,
  data: string | Buffer,
  { hold = false, after }: { hold?: boolean; after?: (socket: Socket) => void } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    socket.write(data);
    after?.(socket);
    if (!hold) socket.end();
  });
}

/**
 * A raw connection to 127.0.0.1:`port`, once accepted, whose received bytes gather in `text` (as latin1); it is
 * added to `opened`, for the caller to destroy at the end.
 */
export async function openRaw(port: number, opened: Socket[]): Promise<Socket & { text: string }> {
  const socket = await new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.once('error', reject);
  });
  opened.push(socket);
  const withText = Object.assign(socket, { text: '' });
  socket.on('data', (chunk: Buffer) => {
    withText.text += chunk.toString('latin1');
  });
  return withText;
}

/**
 * A warranty quote sent on a raw kept-alive connection to `t`'s app (which it starts listening on 127.0.0.1), its
 * body still on its way: the connection is busy when a shutdown begins. `finish(after)` sends the rest of the body,
 * then `after` on the same connection, and resolves with every byte received (latin1) once the server has closed the
 * connection.
 */
export async function quoteInFlight(
  t: TestApp,
  cookie: string,
): Promise<{ port: number; finish: (after?: string) => Promise<string> }> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  const body = JSON.stringify(VALID_BODIES['POST /api/:client/warranty']);
  const socket = await openRaw(port, []);
  socket.write(
    `POST /api/demo/warranty HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
      body.slice(0, 10),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    port,
    finish: async (after = '') => {
      const closed = new Promise((resolve) => socket.once('close', resolve));
      socket.write(body.slice(10) + after);
      await closed;
      return socket.text;
    },
  };
}
