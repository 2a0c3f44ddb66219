import { stat } from 'node:fs/promises';
import path from 'node:path';
import fp from 'fastify-plugin';
import { openDatabase } from '../../db/connect.js';
import { purgeLoginAttempts } from '../../repositories/login-attempts.js';
import { purgeExpired } from '../../repositories/sessions.js';
import { BackgroundTasks } from '../../services/background.js';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { DiskSpace, isOutOfSpace } from '../../services/disk-space.js';
import { createMailer } from '../../services/mailer.js';
import { OutboxWorker } from '../../services/outbox-worker.js';
import { seedIfEmpty } from '../../services/seed.js';
import { sweepOrphanUploads } from '../../services/upload-sweep.js';
import { StorageError, WRITABLE_DATA_DIR, codeOf, storageProblem } from '../../storage-error.js';

export interface ServicesOptions {
  /** Start the outbox worker's polling loop (tests drive it with `app.outbox.runOnce()`). */
  startWorkers: boolean;
}

/**
 * The database (migrated, seeded on first start), the mailer, the outbox worker and background tasks.
 * Closed in reverse order when the app closes.
 */
export default fp<ServicesOptions>(
  async (app, opts) => {
    const { config } = app;
    const uploadsDir = path.join(config.dataDir, 'uploads');
    const outboxDir = path.join(config.dataDir, 'outbox');
    // A file where the uploads' (or the local outbox's) folder must be: the server started, then refused every due
    // diligence request with a 503 and logged a stack at error from each hourly sweep (found by the thirty-first
    // session's fault probe). The start says so in one line, as for the media folder.
    const folders = {
      uploads: uploadsDir,
      ...(config.smtpUrl === null ? { outbox: outboxDir } : {}),
    };
    for (const [name, at] of Object.entries(folders)) {
      if ((await stat(at).catch(() => undefined))?.isDirectory() === false) {
        throw new StorageError(
          `${at} must be a folder (it holds the ${name === 'uploads' ? "due diligence requests' files" : 'mails'}), ` +
            'but a file is there. Move the file away, then start the server again.',
        );
      }
    }
    const db = await openDatabase(
      config,
      (error) =>
        app.log.warn({ err: error }, 'A database connection was lost; the pool opens a new one'),
      {
        statementTimeout: true,
        mustWrite: true,
        onFilesReplaced: (name) =>
          app.log.error(
            `The database's ${name} file was deleted or replaced by another program while this server had it ` +
              'open: writes are refused (503) to keep the data from being damaged. Stop every process using ' +
              'DATA_DIR (servers, the staff tool), ' +
              (name.endsWith('.sqlite')
                ? `put ${name} back where it was (beside its -wal file: the latest writes are there), `
                : '') +
              'then start the server again.',
          ),
        onLockWait: (waitMs) =>
          app.log.warn(
            `Another process (the staff tool, or another server using the same DATA_DIR) holds the database's ` +
              `write lock: waiting up to ${Math.round(waitMs / 1000)} s for it`,
          ),
      },
    );
    app.decorate('db', db);

    const mailer = createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir,
      uploadsDir,
      log: app.log,
    });
    app.decorate('mailer', mailer);
    const outbox = new OutboxWorker({
      db,
      mailer,
      clock: app.clock,
      log: app.log,
      uploadsDir,
      pollMs: config.outboxPollMs,
    });
    app.decorate('outbox', outbox);
    app.decorate('diskSpace', new DiskSpace(config.dataDir, config.minFreeDiskBytes));
    const startProblem = await app.diskSpace.startProblem();
    if (startProblem !== undefined) app.log.warn(startProblem);
    app.decorate(
      'background',
      new BackgroundTasks((error) => {
        // A full disk or a database not answering is the surroundings', not the code's: said at warn with its code
        // and message, no stack (found by the twentieth session's fault probe: each quote on a full disk logged a
        // stack from its mail's background send). The outbox's poll sends the mail once there is room.
        if (isOutOfSpace(error) || isDatabaseUnavailable(error)) {
          const { code, message } = error as { code?: unknown; message?: unknown };
          app.log.warn({ fault: { code, message } }, 'Background task failed');
        } else app.log.error({ err: error }, 'Background task failed');
      }),
    );

    try {
      await seedIfEmpty(
        db.kysely,
        config.contentDir,
        path.join(config.dataDir, 'media'),
        app.clock(),
        app.log,
      );
    } catch (error) {
      // A full or read-only disk while the first start copies the demo content: one plain line, as for the
      // database (found by the sixteenth session's fault probe: a stack with `ENOSPC … copyfile`).
      const problem = storageProblem(codeOf(error));
      if (problem === undefined) throw error;
      throw new StorageError(
        `The demo content cannot be stored in ${config.dataDir}: ${problem} (${codeOf(error)}). ` +
          WRITABLE_DATA_DIR,
        { cause: error },
      );
    }

    let purgeTimer: NodeJS.Timeout | undefined;
    if (opts.startWorkers) {
      outbox.start();
      const purge = () => {
        void purgeExpired(db.kysely, app.clock())
          .then(() =>
            purgeLoginAttempts(db.kysely, config.loginWindowMinutes * 60_000, app.clock()),
          )
          .catch((error: unknown) =>
            app.log.error({ err: error }, 'Purging expired sessions and login attempts failed'),
          );
        // Wall-clock time, not app.clock(): it is compared with the files' modification times.
        void sweepOrphanUploads(db.kysely, uploadsDir, new Date())
          .then((removed) => {
            if (removed.length > 0) app.log.info({ removed }, 'Removed orphaned upload files');
          })
          .catch((error: unknown) => app.log.error({ err: error }, 'Sweeping uploads failed'));
      };
      purgeTimer = setInterval(purge, 60 * 60_000);
      purgeTimer.unref();
      purge();
    }

    app.addHook('onClose', async () => {
      if (purgeTimer !== undefined) clearInterval(purgeTimer);
      // The worker first: it finishes its current batch and leaves any backlog for the next start, so
      // background tasks waiting on it (a POST's "send now") end without draining the whole queue.
      await outbox.stop();
      await app.background.drain();
      mailer.close();
      await db.close();
    });
  },
  { name: 'services', dependencies: ['config'] },
);
