import { afterEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse } from '@/testing/fixtures';

import { messageOf, TIMEOUT_MESSAGE } from './errors';
import {
  ApiError,
  apiFetch,
  boundedMessage,
  isJsonContentType,
  MAX_ERROR_MESSAGE,
  REQUEST_TIMEOUT_MS,
  UNREADABLE_ANSWER_MESSAGE,
  UnreadableAnswerError,
} from './api-client';

const fetchMock = vi.fn<typeof fetch>();

function stubFetch(response: Response) {
  fetchMock.mockResolvedValueOnce(response);
  vi.stubGlobal('fetch', fetchMock);
}

async function rejectionOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

describe('apiFetch', () => {
  describe('given a JSON answer', () => {
    it('should parse it as JSON', async () => {
      stubFetch(jsonResponse({ name: 'Demo' }));
      await expect(apiFetch('/api/demo')).resolves.toEqual({ name: 'Demo' });
    });

    it('should parse a +json content type with parameters as JSON too', async () => {
      stubFetch(
        new Response('{"a":1}', {
          headers: { 'content-type': 'application/problem+json; charset=utf-8' },
        }),
      );
      await expect(apiFetch('/api/demo')).resolves.toEqual({ a: 1 });
    });
  });

  // Found by the eighteenth session's portal probe: a 200 of another server (a captive portal's page) was returned
  // as text and taken as the data: a calculator showed "Your reference: undefined" as if the team had the details.
  describe('given an ok answer that is not a JSON object', () => {
    it.each([
      ['a captive portal’s page', '<html><body>Sign in to the Wi-Fi</body></html>', 'text/html'],
      ['a proxy’s word', 'OK', 'text/plain'],
      ['JSON cut short', '{"reference":"CAR-20', 'application/json'],
      ['JSON null', 'null', 'application/json'],
      ['a JSON string', '"CAR-2026-000001"', 'application/json'],
      ['a JSON array', '[]', 'application/json'],
    ])('should refuse %s as unreadable, in plain words', async (_, text, contentType) => {
      stubFetch(new Response(text, { status: 200, headers: { 'content-type': contentType } }));
      const error = await rejectionOf(apiFetch('/api/demo/content'));
      expect(error).toBeInstanceOf(UnreadableAnswerError);
      expect(error.status).toBe(200);
      expect(error.message).toBe(UNREADABLE_ANSWER_MESSAGE);
    });

    it('should read a JSON object labelled as text as the answer', async () => {
      stubFetch(new Response('{"a":1}', { headers: { 'content-type': 'text/plain' } }));
      await expect(apiFetch('/api/demo')).resolves.toEqual({ a: 1 });
    });

    it('should return undefined for an empty 204', async () => {
      stubFetch(new Response(null, { status: 204 }));
      await expect(apiFetch('/api/demo/activity', { method: 'POST' })).resolves.toBeUndefined();
    });
  });

  // Found by the nineteenth session's portal probe: a JSON object of another shape crashed the page drawing it.
  describe('given a shape for the answer', () => {
    const shape = (payload: unknown) =>
      typeof payload === 'object' && Array.isArray((payload as { items?: unknown }).items);

    it('should return an answer of that shape', async () => {
      stubFetch(new Response('{"items":[1]}', { headers: { 'content-type': 'application/json' } }));
      await expect(apiFetch('/api/demo/content', { shape })).resolves.toEqual({ items: [1] });
    });

    it.each([
      ['another shape', '{"items":null}'],
      ['no body', ''],
    ])('should refuse %s as unreadable', async (_, text) => {
      stubFetch(
        new Response(text, { status: 200, headers: { 'content-type': 'application/json' } }),
      );
      const error = await rejectionOf(apiFetch('/api/demo/content', { shape }));
      expect(error).toBeInstanceOf(UnreadableAnswerError);
      expect(error.message).toBe(UNREADABLE_ANSWER_MESSAGE);
    });
  });

  describe('when a json body is given', () => {
    it('should send it serialised, with its content type and same-origin credentials', async () => {
      stubFetch(jsonResponse({ redirect: false }));
      await apiFetch('/api/demo/login', { method: 'POST', json: { first_name: 'Ada' } });

      const [path, init] = fetchMock.mock.calls[0]!;
      expect(path).toBe('/api/demo/login');
      expect(init?.method).toBe('POST');
      expect(init?.body).toBe('{"first_name":"Ada"}');
      expect(init?.credentials).toBe('same-origin');
      expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    });
  });

  describe('when the answer is not ok', () => {
    it("should throw the body's error field as the message, with the status", async () => {
      stubFetch(
        jsonResponse({ error: 'Too many attempts, try again in a minute.' }, { status: 429 }),
      );
      const error = await rejectionOf(apiFetch('/api/demo/login', { method: 'POST' }));
      expect(error.status).toBe(429);
      expect(error.message).toBe('Too many attempts, try again in a minute.');
    });

    it("should use the spec's message word for word when there is no error field", async () => {
      stubFetch(
        new Response('<h1>Bad gateway</h1>', {
          status: 502,
          headers: { 'content-type': 'text/html' },
        }),
      );
      const error = await rejectionOf(apiFetch('/api/demo/content'));
      expect(error.status).toBe(502);
      expect(error.message).toBe('An API error occured, status was 502 for /api/demo/content');
    });

    it('should use the same message when the error field is empty or not a string', async () => {
      stubFetch(jsonResponse({ error: '' }, { status: 500 }));
      const empty = await rejectionOf(apiFetch('/api/demo'));
      expect(empty.message).toBe('An API error occured, status was 500 for /api/demo');

      stubFetch(jsonResponse({ error: { code: 1 } }, { status: 400 }));
      const notText = await rejectionOf(apiFetch('/api/demo'));
      expect(notText.message).toBe('An API error occured, status was 400 for /api/demo');
    });

    // Found by the thirty-first session's portal probe: a 20,000-character error field (a broken or hostile proxy's)
    // was shown whole by the calculators, the due-diligence form, the login and the content pages, filling the screen.
    it('should cut a long error field at a word, with an ellipsis, to at most MAX_ERROR_MESSAGE characters', async () => {
      const word = 'overflow ';
      stubFetch(jsonResponse({ error: word.repeat(20_000 / word.length) }, { status: 502 }));
      const error = await rejectionOf(apiFetch('/api/demo/content'));
      expect(error.status).toBe(502);
      expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
      expect(error.message.length).toBeGreaterThan(MAX_ERROR_MESSAGE - word.length - 1);
      expect(error.message).toMatch(/^(overflow )+overflow…$/);
    });

    it('should cut one long word where the limit falls, and never between the halves of a character', async () => {
      stubFetch(jsonResponse({ error: '😀'.repeat(10_000) }, { status: 500 }));
      const error = await rejectionOf(apiFetch('/api/demo'));
      expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
      expect(error.message).toMatch(/^(😀)+…$/u);
    });

    it('should keep a message of MAX_ERROR_MESSAGE characters whole', async () => {
      const message = `${'a'.repeat(MAX_ERROR_MESSAGE - 1)}.`;
      stubFetch(jsonResponse({ error: message }, { status: 400 }));
      expect((await rejectionOf(apiFetch('/api/demo'))).message).toBe(message);
    });
  });
});

// The one cap of a failure's message, also for one read back from the tab's storage (a calculator's failed
// submission): a message it has already cut is cut no further, so a stored message reads back as it was shown.
describe('boundedMessage', () => {
  it('should leave a message it has cut, or one within the limit, as it is', () => {
    for (const message of [
      'word '.repeat(400),
      'x'.repeat(10_000),
      '😀'.repeat(1_000),
      `${'a'.repeat(MAX_ERROR_MESSAGE - 1)}.`,
      'The connection to our server failed.',
    ]) {
      const cut = boundedMessage(message);
      expect(cut.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
      expect(boundedMessage(cut)).toBe(cut);
    }
    expect(boundedMessage('x'.repeat(MAX_ERROR_MESSAGE + 1))).toMatch(/^x+…$/);
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['Application/JSON; charset=utf-8', true],
    ['application/vnd.api+json', true],
    ['text/html; charset=utf-8', false],
    ['text/json-ish', false],
    [null, false],
  ])('should say %s is JSON: %s', (contentType, expected) => {
    expect(isJsonContentType(contentType)).toBe(expected);
  });
});

// Found by the twenty-third session's portal probe: a server that never answered left "Loading topics…",
// "Searching…" and the login's busy Continue on screen for ever.
describe('apiFetch when the server does not answer', () => {
  /** A server that never answers: the call ends only when its signal is aborted, as fetch does. */
  function neverAnswer(abortError: (signal: AbortSignal) => unknown = (signal) => signal.reason) {
    fetchMock.mockImplementation(
      (_input, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(abortError(init.signal!)));
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
  }

  afterEach(() => vi.useRealTimers());

  it('should give up after 30 s with a TimeoutError, which reads as the calculators’ message', async () => {
    vi.useFakeTimers();
    neverAnswer();
    const call = apiFetch('/api/demo/content');
    const outcome = vi.fn();
    call.catch(outcome);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(messageOf(outcome.mock.calls[0]?.[0])).toBe(TIMEOUT_MESSAGE);
  });

  it('should say so also where the browser rejects with an AbortError of its own', async () => {
    vi.useFakeTimers();
    neverAnswer(() => new DOMException('The user aborted a request.', 'AbortError'));
    const call = apiFetch('/api/demo/login', { method: 'POST', json: {} });
    call.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
    await expect(call).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it('should leave a call with a signal of its own to it, and stop counting once answered', async () => {
    vi.useFakeTimers();
    neverAnswer();
    const controller = new AbortController();
    const own = apiFetch('/api/demo/warranty', { method: 'POST', signal: controller.signal });
    const outcome = vi.fn();
    own.catch(outcome);
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS * 2);
    expect(outcome).not.toHaveBeenCalled();
    controller.abort();
    await expect(own).rejects.toMatchObject({ name: 'AbortError' });

    stubFetch(jsonResponse({ name: 'Demo' }));
    await expect(apiFetch('/api/demo')).resolves.toEqual({ name: 'Demo' });
    expect(vi.getTimerCount()).toBe(0);
  });
});
