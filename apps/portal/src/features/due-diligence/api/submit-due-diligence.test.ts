import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError, MAX_ERROR_MESSAGE, UnreadableAnswerError } from '@/lib/api-client';

import { EMPTY_DRAFT } from '../stores/draft-store';

import { messageOf } from '@/lib/errors';

import {
  CONNECTION_FAILED_MESSAGE,
  submitDueDiligence,
  TIMED_OUT_MESSAGE,
} from './submit-due-diligence';

/** Just enough of XMLHttpRequest for the upload: the test plays the server through `respond` and `fail`. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  responseURL = '';
  aborted = false;
  private responseHeaders: Record<string, string> = {};
  private listeners: Record<string, (() => void)[]> = {};
  upload = {
    listeners: [] as ((event: ProgressEvent) => void)[],
    addEventListener(_type: string, listener: (event: ProgressEvent) => void) {
      this.listeners.push(listener);
    },
  };

  constructor() {
    FakeXhr.last = this;
  }

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  addEventListener(type: string, listener: () => void) {
    (this.listeners[type] ??= []).push(listener);
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name.toLowerCase()] ?? null;
  }
  send(body: unknown) {
    this.body = body;
  }
  abort() {
    this.aborted = true;
    this.emit('abort');
  }

  progress(loaded: number, total: number) {
    for (const listener of this.upload.listeners) {
      listener({ lengthComputable: true, loaded, total } as ProgressEvent);
    }
  }
  respond(
    status: number,
    body = '',
    contentType = 'application/json',
    // Where the browser ended after following the API's 303: the thank-you page.
    responseURL = `${window.location.origin}/demo/due-diligence?success=1`,
  ) {
    this.responseURL = responseURL;
    this.status = status;
    this.responseText = body;
    this.responseHeaders = { 'content-type': contentType };
    this.emit('load');
  }
  fail() {
    this.emit('error');
  }
  private emit(type: string) {
    for (const listener of this.listeners[type] ?? []) listener();
  }
}

const request = {
  ...EMPTY_DRAFT,
  projectName: 'Harbour Quay',
  projectAddress: '1 Quay Street',
  cityAndPostcode: 'Bristol BS1 4XX',
  projectDescription: 'Flats',
  file: null,
  email: 'ada@example.com',
  fullName: 'Ada Lovelace',
};

beforeEach(() => {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  vi.unstubAllGlobals();
  FakeXhr.last = undefined;
});

describe('submitDueDiligence', () => {
  it("should POST the multipart form to the client's endpoint and report upload progress", async () => {
    const progress: number[] = [];
    const done = submitDueDiligence('demo', request, { onProgress: (p) => progress.push(p) });
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/demo/due-diligence');
    expect(xhr.body).toBeInstanceOf(FormData);

    xhr.progress(512, 2048);
    xhr.respond(200, '<!doctype html>', 'text/html');
    await expect(done).resolves.toBeUndefined();
    expect(progress).toEqual([0.25, 1]);
  });

  it('should send the Idempotency-Key it is given, and none without one', async () => {
    const keyed = submitDueDiligence('demo', request, { idempotencyKey: '0f1e2d3c' });
    expect(FakeXhr.last!.headers['idempotency-key']).toBe('0f1e2d3c');
    FakeXhr.last!.respond(200, '<!doctype html>', 'text/html');
    await keyed;
    const plain = submitDueDiligence('demo', request);
    expect(FakeXhr.last!.headers).not.toHaveProperty('idempotency-key');
    FakeXhr.last!.respond(200, '<!doctype html>', 'text/html');
    await plain;
  });

  // A 200 of another server (a captive portal's page) said "Thank you" for a request the API never had.
  it('should not take a 200 that did not end on the thank-you page as stored', async () => {
    for (const ended of [
      'http://wifi.example/login',
      `${window.location.origin}/demo/due-diligence`,
      `${window.location.origin}/northbank/due-diligence?success=1`,
      '',
    ]) {
      const done = submitDueDiligence('demo', request);
      FakeXhr.last!.respond(200, '<!doctype html><title>Sign in</title>', 'text/html', ended);
      await expect(done, ended).rejects.toEqual(new UnreadableAnswerError(200));
    }
  });

  it("should reject with the API's error message and status", async () => {
    const done = submitDueDiligence('demo', request);
    FakeXhr.last!.respond(413, JSON.stringify({ error: 'File size should be less than 20MB.' }));
    await expect(done).rejects.toEqual(new ApiError(413, 'File size should be less than 20MB.'));
  });

  // The same bound as every other call's (lib/api-client.ts): a 20,000-character error field was shown whole.
  it('should cut a long error field to at most MAX_ERROR_MESSAGE characters', async () => {
    const done = submitDueDiligence('demo', request);
    FakeXhr.last!.respond(400, JSON.stringify({ error: 'Refused '.repeat(2_500) }));
    const error = await done.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
    expect((error as ApiError).message).toMatch(/^(Refused )+Refused…$/);
  });

  it("should reject with the spec's generic message when the answer has no error field", async () => {
    const done = submitDueDiligence('demo', request);
    FakeXhr.last!.respond(502, '<h1>Bad gateway</h1>', 'text/html');
    await expect(done).rejects.toThrow(
      'An API error occured, status was 502 for /api/demo/due-diligence',
    );
  });

  it('should say the connection failed when there is no answer at all', async () => {
    const done = submitDueDiligence('demo', request);
    FakeXhr.last!.fail();
    await expect(done).rejects.toThrow(CONNECTION_FAILED_MESSAGE);
  });
});

// Found by the twenty-third session's portal probe: a server that took the whole upload and never answered left
// "Uploading… 100%" and a busy Submit request for ever.
describe('submitDueDiligence when the server stops answering', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  /** The outcome so far: pending, or how the request ended. */
  function outcomeOf(done: Promise<void>) {
    const outcome: { settled: boolean; error?: unknown } = { settled: false };
    done.then(
      () => (outcome.settled = true),
      (error: unknown) => Object.assign(outcome, { settled: true, error }),
    );
    return outcome;
  }

  it('should wait as long as a slow upload goes on, then 30 s for the answer', async () => {
    const done = submitDueDiligence('demo', request);
    const outcome = outcomeOf(done);
    const xhr = FakeXhr.last!;
    // 20 MB over a slow line: five minutes, a little every 20 s.
    for (let sent = 1; sent <= 15; sent += 1) {
      await vi.advanceTimersByTimeAsync(20_000);
      xhr.progress(sent, 15);
    }
    expect(outcome.settled).toBe(false);
    // All of it sent; the answer never comes.
    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(done).rejects.toThrow(TIMED_OUT_MESSAGE);
    // It may have arrived: sending again under the same key sends it once (thirtieth session).
    expect(messageOf(outcome.error)).toBe(
      'Our server took too long to answer. Please try again: if your request did reach our team, they will not get it twice.',
    );
    expect(xhr.aborted).toBe(true);
  });

  it('should give up when the upload makes no progress for 30 s', async () => {
    const stalled = submitDueDiligence('demo', request);
    const outcome = outcomeOf(stalled);
    await vi.advanceTimersByTimeAsync(10_000);
    FakeXhr.last!.progress(1, 10);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(stalled).rejects.toThrow(TIMED_OUT_MESSAGE);

    // Nothing moves at all from the start.
    const silent = submitDueDiligence('demo', request);
    const silence = outcomeOf(silent);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(silence.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(silent).rejects.toThrow(TIMED_OUT_MESSAGE);
  });

  it('should not give up a request that was answered, or cancelled', async () => {
    const answered = submitDueDiligence('demo', request);
    FakeXhr.last!.respond(200, '<!doctype html>', 'text/html');
    await expect(answered).resolves.toBeUndefined();
    const first = FakeXhr.last!;
    const controller = new AbortController();
    const cancelled = submitDueDiligence('demo', request, { signal: controller.signal });
    const second = FakeXhr.last!;
    controller.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    second.aborted = false;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(first.aborted).toBe(false);
    expect(second.aborted).toBe(false);
  });
});
