/**
 * The one fetch wrapper of the portal (spec §7 and §8).
 *
 * - Same-origin credentials: the session cookie is HttpOnly and travels by itself.
 * - `json` becomes a JSON body with its content type.
 * - The response is parsed as JSON when its content type is JSON, otherwise read as text.
 * - A response that is not ok throws an {@link ApiError} whose message is the body's `error` field if present,
 *   else 'An API error occured, status was {status} for {path}' (the spec's wording, spelling included).
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

export type ApiFetchInit = RequestInit & { json?: unknown };

/** The spec's generic message for a failed call without an `error` field. */
export function defaultApiErrorMessage(status: number, path: string): string {
  return `An API error occured, status was ${status} for ${path}`;
}

export async function apiFetch<T>(path: string, init: ApiFetchInit = {}): Promise<T> {
  const { json, headers: initHeaders, body: initBody, ...rest } = init;
  const headers = new Headers(initHeaders);
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  let body = initBody;
  if (json !== undefined) {
    headers.set('content-type', 'application/json');
    body = JSON.stringify(json);
  }

  // A call that changes something (logging in or out…) makes the page's served answers out of date.
  if ((rest.method ?? 'GET').toUpperCase() !== 'GET') endBoot();
  const response = await fetch(path, { ...rest, headers, body, credentials: 'same-origin' });
  const payload = await parseBody(response);

  if (!response.ok) {
    throw new ApiError(
      response.status,
      errorMessage(payload) ?? defaultApiErrorMessage(response.status, path),
    );
  }
  return payload as T;
}

/** JSON when the content type says so, otherwise text. An empty body (e.g. 204) is `undefined`. */
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

/** `application/json`, `application/problem+json`, with or without parameters. */
export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return mediaType === 'application/json' || mediaType.endsWith('+json');
}

/** The body's `error` field when it is a non-empty string. */
export function errorMessage(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null || !('error' in payload)) return undefined;
  const { error } = payload as { error: unknown };
  return typeof error === 'string' && error.trim() !== '' ? error : undefined;
}
