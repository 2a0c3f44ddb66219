/**
 * The one fetch wrapper of the portal (spec §7 and §8).
 *
 * - Same-origin credentials: the session cookie is HttpOnly and travels by itself.
 * - `json` becomes a JSON body with its content type.
 * - An ok response is the API's answer only when its body is a JSON object (or there is none, as in a 204);
 *   anything else throws an {@link UnreadableAnswerError}.
 * - A response that is not ok throws an {@link ApiError} whose message is the body's `error` field if present,
 *   else 'An API error occured, status was {status} for {path}' (the spec's wording, spelling included), cut to
 *   {@link MAX_ERROR_MESSAGE} characters ({@link failureMessage}).
 */
import { endBoot } from './boot';

export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * How long a call may wait for the server before it is given up (a `TimeoutError`, "Our server took too long to
 * answer."): every call of `apiFetch` without a signal of its own, and each pause of the due-diligence upload. The
 * calculators' posts bring their own signal, with this same wait (`SUBMIT_TIMEOUT_MS`).
 */
export const REQUEST_TIMEOUT_MS = 30_000;

/** What a failure says when an answer came but was not one the API gives. */
export const UNREADABLE_ANSWER_MESSAGE = "Our server's answer could not be read.";

/**
 * An ok answer that is not the API's (a captive portal's or a proxy's page, a body cut short): the call failed,
 * in plain words, and may be tried again. The status is the answer's own.
 */
export class UnreadableAnswerError extends ApiError {
  constructor(status: number) {
    super(status, UNREADABLE_ANSWER_MESSAGE);
  }
}

export type ApiFetchInit = RequestInit & {
  json?: unknown;
  /** The shape of the API's ok answer (`lib/answer-shapes.ts`): an answer of another shape is unreadable. */
  shape?: (payload: unknown) => boolean;
};

/** The spec's generic message for a failed call without an `error` field. */
export function defaultApiErrorMessage(status: number, path: string): string {
  return `An API error occured, status was ${status} for ${path}`;
}

export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { json, shape, headers: initHeaders, body: initBody, ...rest } = init;
  const headers = new Headers(initHeaders);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  let body = initBody;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(json);
  }

  // A call that changes something (logging in or out…) makes the page's served answers out of date.
  if ((rest.method ?? 'GET').toUpperCase() !== 'GET') endBoot();

  // Found by the twenty-third session's portal probe: a server that never answered left "Loading topics…",
  // "Searching…" and the login's busy Continue on screen for ever. A call without a signal of its own (the
  // calculators bring theirs) is given up after REQUEST_TIMEOUT_MS, its answer's body included, with the
  // TimeoutError the pages say "Our server took too long to answer." for, beside their Retry.
  const timeout = rest.signal == null ? new AbortController() : null;
  const timer =
    timeout === null
      ? undefined
      : setTimeout(
          () => timeout.abort(new DOMException(TIMEOUT_REASON, 'TimeoutError')),
          REQUEST_TIMEOUT_MS,
        );
  try {
    const response = await fetch(path, {
      ...rest,
      signal: rest.signal ?? timeout?.signal,
      headers,
      body,
      credentials: 'same-origin',
    });
    if (response.ok) {
      const answer = await answerOf(response);
      if (shape !== undefined && !shape(answer)) throw new UnreadableAnswerError(response.status);
      return answer as T;
    }

    throw new ApiError(
      response.status,
      failureMessage(await parseBody(response), response.status, path),
    );
  } catch (error) {
    // Whatever the browser rejected with as the wait ran out (an older one says AbortError), it was the wait.
    if (timeout?.signal.aborted) throw timeout.signal.reason;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

const TIMEOUT_REASON = 'The server did not answer in time.';

/**
 * The body of an ok answer: `undefined` when there is none (a 204), else the JSON object the API sends.
 *
 * Found by the eighteenth session's portal probe: a 200 of another server (a captive portal's HTML page, a proxy's
 * "OK") was returned as text and taken as the data, so a calculator showed "Your reference: undefined. Our team
 * has your details…" and a page drew from a string. Every answer of the API is a JSON object; anything else is a
 * failure the pages show in plain words, with their Retry. The body is read as JSON whatever its label says: it is
 * what it holds that tells the API's answer from another server's page.
 */
async function answerOf(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(text) as unknown;
  } catch {
    throw new UnreadableAnswerError(response.status);
  }
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new UnreadableAnswerError(response.status);
  }
  return payload;
}

/**
 * The body of an answer that is not ok, for its `error` field: JSON when the content type says so, otherwise
 * text. An empty body is `undefined`.
 */
export async function parseBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  if (!isJsonContentType(response.headers.get('content-type'))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // A body labelled JSON that is not JSON is still worth showing as text rather than losing.
    return text;
  }
}

/** A Content-Type's media type, without its parameters, in lower case ('' when there is none). */
export function mediaTypeOf(contentType: string | null): string {
  return (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
}

/** `application/json`, `application/problem+json`, with or without parameters. */
export function isJsonContentType(contentType: string | null): boolean {
  const mediaType = mediaTypeOf(contentType);
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The body's `error` field when it is a non-empty string. */
export function errorMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('error' in payload)) return undefined;
  const { error } = payload as { error: unknown };
  return typeof error === 'string' && error.trim() !== '' ? error : undefined;
}

/**
 * The most of a failure's message the portal shows. Every message the API writes is shorter (the longest, about 130
 * characters, names a field and its problem); the spec's own are shorter still, and are shown word for word.
 */
export const MAX_ERROR_MESSAGE = 300;

/**
 * The message of a failed call, for every call of the portal (`apiFetch` and the due-diligence upload): the body's
 * `error` field, else the spec's generic message, at most {@link MAX_ERROR_MESSAGE} characters.
 *
 * Found by the thirty-first session's portal probe: a 20,000-character `error` (a broken or hostile proxy's, a server
 * in front of the API) was shown whole by the calculators, the due-diligence form, the login and the content pages,
 * and filled the screen. A longer message is cut at its last space before the limit (or where the limit falls, when
 * there is none in the last third), never between the two halves of a character, and ends with an ellipsis.
 */
export function failureMessage(payload: unknown, status: number, path: string): string {
  return boundedMessage(errorMessage(payload) ?? defaultApiErrorMessage(status, path));
}

/**
 * A failure's message as the portal shows it: at most {@link MAX_ERROR_MESSAGE} characters (see
 * {@link failureMessage}). A message already within the limit is itself, so a message kept as shown (a calculator's
 * failed submission, in the tab's storage) reads back the same; one stored longer (altered in the tab, or kept by an
 * older screen) is cut as an API's would be.
 */
export function boundedMessage(message: string): string {
  if (message.length <= MAX_ERROR_MESSAGE) return message;
  let cut = MAX_ERROR_MESSAGE - 1;
  // Not between a high and a low surrogate: half an emoji is drawn as a replacement character.
  if (/[\uD800-\uDBFF]/.test(message.charAt(cut - 1))) cut -= 1;
  const head = message.slice(0, cut);
  // A space before the limit but not far before it: a long run of one word is cut where the limit falls.
  const space = head.search(/\s\S*$/);
  const kept = space > (MAX_ERROR_MESSAGE * 2) / 3 ? head.slice(0, space) : head;
  return `${kept.trimEnd()}…`;
}
