import type { Clock } from './clock.js';
import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import type { Client } from './repositories/clients.js';
import type { User } from './repositories/users.js';
import type { BackgroundTasks } from './services/background.js';
import type { DiskSpace } from './services/disk-space.js';
import type { Mailer } from './services/mailer.js';
import type { OutboxWorker } from './services/outbox-worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    clock: Clock;
    db: Db;
    mailer: Mailer;
    outbox: OutboxWorker;
    background: BackgroundTasks;
    /** The data folder's free space, checked before a submission or a file is stored. */
    diskSpace: DiskSpace;
    /** Resolves `:client` (404 when unknown) into `request.portalClient`. */
    loadClient: (request: FastifyRequest) => Promise<void>;
    /** Like loadClient, then requires a live session of that client (401) into `request.portalUser`. */
    requireUser: (request: FastifyRequest) => Promise<void>;
    /**
     * For a route that reads its body itself, after requireUser (the due-diligence upload): once the body is
     * in, requires the same session to be live still, as the database holds it now (401 otherwise).
     */
    requireUserStill: (request: FastifyRequest) => Promise<void>;
    sessionCookie: SessionCookie;
  }
  interface FastifyContextConfig {
    /** A GET that changes state (logout): gets the cross-site check of unsafe methods. */
    stateChanging?: boolean;
    /**
     * Answers an HTML page a person opens (the login link's pages): its query and form text are judged by the
     * handler, which answers with a page, not refused up front as JSON a browser would show raw.
     */
    page?: boolean;
  }
  interface FastifyRequest {
    portalClient: Client | null;
    portalUser: User | null;
  }
}

export interface SessionCookie {
  name: string;
  secure: boolean;
  /** The session token of a signed cookie value and its stored id, or `undefined` when not validly signed. */
  unsign(raw: string): SessionCookieValue | undefined;
}

export interface SessionCookieValue {
  /** The session token (what logout and a new login end). */
  token: string;
  /** Its SHA-256: the `sessions.id` it is stored under. */
  id: string;
}

/** An error whose message is safe to show to the client, with its HTTP status. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const clientOf = (request: { portalClient: Client | null }): Client => {
  if (request.portalClient === null) throw new Error('Route used without loadClient');
  return request.portalClient;
};

export const userOf = (request: { portalUser: User | null }): User => {
  if (request.portalUser === null) throw new Error('Route used without requireUser');
  return request.portalUser;
};
