/**
 * Makes every file and folder this process creates its owner's alone (files 0600, folders 0700): the database
 * and its -wal and -shm files (names, e-mails, phones), the uploads, the outbox's mails, the staff tool's CSV
 * exports. Without it they followed the usual umask (0644 and 0755), and in a data folder the operator made
 * readable by others (`mkdir -p`, 0755) any local user could read the database (found by the seventeenth
 * session's API probe). The data folder itself, when the server makes it, was already 0700 (data-dir.ts).
 */
export function keepFilesPrivate(): void {
  process.umask(0o077);
}
