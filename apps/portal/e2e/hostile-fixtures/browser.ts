import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { BrowserContext, Page } from '@playwright/test';

import { dataDir } from '../fixtures';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const ADMIN = path.resolve(here, '../../../api/dist/admin.js');

/** The staff CLI, against the e2e server's data directory (the real validation and import path). */
export async function admin(...args: string[]) {
  return run(process.execPath, [ADMIN, ...args], {
    env: { ...process.env, DATA_DIR: dataDir(), LOG_LEVEL: 'silent' },
  });
}

interface Statement {
  run: (...params: unknown[]) => unknown;
  get: (...params: unknown[]) => unknown;
}
interface SqliteDatabase {
  prepare: (sql: string) => Statement;
  pragma: (text: string) => unknown;
  close: () => void;
}

/**
 * The e2e server's SQLite database, opened beside it: for values that no supported path lets in (an attacker with
 * the database, an older version's data), to see what the portal itself does with them.
 */
export function openDatabase(): SqliteDatabase {
  const requireFromApi = createRequire(path.resolve(here, '../../../api/package.json'));
  const Database = requireFromApi('better-sqlite3') as new (file: string) => SqliteDatabase;
  const db = new Database(path.join(dataDir(), 'portal.sqlite'));
  db.pragma('busy_timeout = 10000');
  return db;
}

export interface Trap {
  /** `__xss(id)` calls and alert/confirm/prompt/print: script that ran. */
  calls: string[];
  dialogs: string[];
  /** CSP violations: markup got as far as the browser and only the CSP stopped it. */
  violations: string[];
  /** Requests the portal does not make by itself (another origin, the API as an image, a logout…). */
  requests: string[];
  /** Requests to another origin that got an answer (left the browser). */
  offsite: string[];
  errors: string[];
  /** Every document answer: its address, status, type and CSP. */
  documents: { url: string; status: number; type: string; csp: string | undefined }[];
}

/** Whether a request is one the portal makes by itself: its documents, code, styles, API calls, imported media. */
function portalRequest(url: URL, resourceType: string, origin: string): boolean {
  if (url.protocol === 'data:' || url.protocol === 'blob:') return true;
  if (url.origin !== origin) return false;
  if (resourceType === 'document') return !/\/logout$/.test(url.pathname);
  if (['script', 'stylesheet', 'font', 'manifest'].includes(resourceType)) {
    return !url.pathname.startsWith('/api/');
  }
  if (resourceType === 'fetch' || resourceType === 'xhr') {
    return url.pathname.startsWith('/api/') && !/\/logout$/.test(url.pathname);
  }
  return /^\/media\/[a-z0-9-]+\/[a-f0-9]{20}\.[a-z0-9]+$/.test(url.pathname);
}

/**
 * Records script that ran: the `__xss(id)` binding payloads call (in every frame), alert/confirm/prompt/print
 * (each also reported as a call), the dialogs they open (dismissed), and CSP violation reports.
 */
export async function hookScript(
  context: BrowserContext,
  page: Page,
  found: Pick<Trap, 'calls' | 'dialogs' | 'violations'>,
): Promise<void> {
  page.on('dialog', (dialog) => {
    found.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await context.exposeBinding('__xss', (_source, id: unknown) => {
    found.calls.push(String(id));
  });
  await context.exposeBinding('__xssViolation', (_source, text: unknown) => {
    found.violations.push(String(text));
  });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xss: (id: string) => void };
    for (const name of ['alert', 'confirm', 'prompt', 'print']) {
      const original = w[name] as (...args: unknown[]) => unknown;
      w[name] = (...args: unknown[]) => {
        w.__xss(`${name}(${String(args[0])})`);
        return original.apply(window, args);
      };
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __xssViolation: (t: string) => void }).__xssViolation(
        `${event.violatedDirective} ${event.blockedURI} ${event.sample}`,
      );
    });
  });
}

/** Hooks every way hostile text could show it did something: script, dialogs, CSP reports, requests, errors. */
export async function trap(context: BrowserContext, page: Page, origin: string): Promise<Trap> {
  const found: Trap = {
    calls: [],
    dialogs: [],
    violations: [],
    requests: [],
    offsite: [],
    errors: [],
    documents: [],
  };
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (!portalRequest(url, request.resourceType(), origin)) {
      found.requests.push(`${request.resourceType()} ${request.url().slice(0, 120)}`);
    }
  });
  page.on('requestfinished', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) found.offsite.push(request.url());
  });
  page.on('response', (response) => {
    if (response.request().resourceType() !== 'document') return;
    const headers = response.headers();
    found.documents.push({
      url: response.url(),
      status: response.status(),
      type: headers['content-type'] ?? '',
      csp: headers['content-security-policy'],
    });
  });
  page.on('pageerror', (error) => found.errors.push(error.message));
  await hookScript(context, page, found);
  return found;
}

/** What is wrong with the page as drawn: no app, raw JSON, the error page, an alert, a page wider than the window. */
export async function pageProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const roots = document.querySelectorAll('#root');
    if (roots.length !== 1) problems.push(`${roots.length} #root elements`);
    if (!document.querySelector('#root main, #root form')) problems.push('nothing drawn in #root');
    if (document.querySelector('body > pre')) problems.push('raw text (JSON) shown');
    for (const heading of document.querySelectorAll('h1')) {
      if (heading.textContent?.trim() === 'Oops!') problems.push('the error page');
    }
    for (const alert of document.querySelectorAll('main [role="alert"]')) {
      problems.push(`alert: ${alert.textContent?.slice(0, 100)}`);
    }
    const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
    if (overflow > 1) problems.push(`the page is ${overflow}px wider than the window`);
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        if (attribute.name.toLowerCase().startsWith('on')) {
          problems.push(`<${element.localName} ${attribute.name}>`);
        }
      }
    }
    return problems;
  });
}

/** Late events (image errors, autofocus) get their chance, then the page is checked. */
export async function settled(page: Page): Promise<string[]> {
  await page.waitForLoadState('load');
  await page.waitForTimeout(200);
  return pageProblems(page);
}
