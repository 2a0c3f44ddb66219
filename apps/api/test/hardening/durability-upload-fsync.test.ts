import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Uploads from '../../src/services/uploads.js';
import { type FsyncRecorder, recordFsyncs } from '../fsync-recorder.js';

const pdf = () => Readable.from([Buffer.from('%PDF-1.4\nplans\n%%EOF\n')]);

// Found by the twenty-ninth session's probe: the first due-diligence upload made `DATA_DIR/uploads` and fsync-ed
// the file and the folder's entries, never the folder's own name in the data folder, so a power cut after the
// request's commit could take the folder and the file its row names (imported media and the session secret
// fsync the folders they make).
describe('a stored upload is durable with the uploads folder that holds it', () => {
  let scratch: string;
  let fsyncs: FsyncRecorder;
  let storeUpload: typeof Uploads.storeUpload;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-upload-fsync-'));
    fsyncs = recordFsyncs();
    ({ storeUpload } = await import('../../src/services/uploads.js'));
  });
  afterAll(async () => {
    fsyncs.stop();
    await rm(scratch, { recursive: true, force: true });
  });

  it('should fsync the data folder once the first upload has made the uploads folder', async () => {
    const dataDir = path.join(scratch, 'data');
    const uploadsDir = path.join(dataDir, 'uploads');
    await mkdir(dataDir);

    fsyncs.synced.length = 0;
    const first = await storeUpload(pdf(), 'plans.pdf', uploadsDir);
    expect(first.status).toBe('stored');
    expect(fsyncs.synced).toEqual(['uploads', 'data']);

    // The folder's name is durable now: later uploads fsync the uploads folder alone.
    fsyncs.synced.length = 0;
    expect((await storeUpload(pdf(), 'plans.pdf', uploadsDir)).status).toBe('stored');
    expect(fsyncs.synced).toEqual(['uploads']);

    // A folder deleted meanwhile and made again is a new name: fsync-ed in the data folder again.
    await rm(uploadsDir, { recursive: true });
    fsyncs.synced.length = 0;
    expect((await storeUpload(pdf(), 'plans.pdf', uploadsDir)).status).toBe('stored');
    expect(fsyncs.synced).toEqual(['uploads', 'data']);
    expect(await readdir(uploadsDir)).toHaveLength(1);
  });
});
