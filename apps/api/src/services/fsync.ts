import { open } from 'node:fs/promises';

/**
 * fsyncs a file or a folder by path: a file's content, or a folder's entries (a rename or a new file in it),
 * so that it survives a power loss. Linux fsyncs a read-only descriptor too.
 */
export async function fsyncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
