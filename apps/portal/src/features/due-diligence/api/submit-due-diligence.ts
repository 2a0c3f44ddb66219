import { paths } from '@/config/paths';
import {
  ApiError,
  REQUEST_TIMEOUT_MS,
  UnreadableAnswerError,
  failureMessage,
  isJsonContentType,
} from '@/lib/api-client';
import { TIMEOUT_MESSAGE, UNCONFIRMED_NOTE } from '@/lib/errors';

/** The request as the form holds it; money in whole pounds. */
export interface DueDiligenceRequest {
  projectName: string;
  projectAddress: string;
  cityAndPostcode: string;
  projectDescription: string;
  buildCost: number;
  gdv: number;
  loanAmount: number;
  file: File | null;
  /** The logged-in user's e-mail and full name, sent without being shown. */
  email: string;
  fullName: string;
}

/**
 * The multipart field names of the form service (spec §7, API contract): SingleLine project name, SingleLine1
 * address, SingleLine2 city and postcode, SingleLine3 description, Currency1 build cost, Currency2 GDV, Currency loan,
 * FileUpload, Email, SingleLine4 full name. The file goes last so the text fields arrive first.
 */
export function toFormData(request: DueDiligenceRequest): FormData {
  const form = new FormData();
  form.set('SingleLine', request.projectName.trim());
  form.set('SingleLine1', request.projectAddress.trim());
  form.set('SingleLine2', request.cityAndPostcode.trim());
  form.set('SingleLine3', request.projectDescription.trim());
  form.set('Currency1', String(request.buildCost));
  form.set('Currency2', String(request.gdv));
  form.set('Currency', String(request.loanAmount));
  form.set('Email', request.email);
  form.set('SingleLine4', request.fullName);
  if (request.file) form.set('FileUpload', request.file, request.file.name);
  return form;
}

/** Shown when the request never got an answer. */
export const CONNECTION_FAILED_MESSAGE =
  'Your request could not be sent: the connection to our server failed. Please try again.';

/**
 * Shown when the server stopped answering: the upload made no progress for {@link REQUEST_TIMEOUT_MS}, or no
 * answer came that long after it ended. Sending again is safe (the same request goes under the same key).
 */
export const TIMED_OUT_MESSAGE = `${TIMEOUT_MESSAGE} ${UNCONFIRMED_NOTE}`;

interface SubmitOptions {
  /** Upload progress from 0 to 1, when the browser knows the total. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
  /** The request's `Idempotency-Key`: the same request sent again under it is stored once (see the draft store). */
  idempotencyKey?: string;
}

/**
 * POST /api/{client}/due-diligence as multipart, through XMLHttpRequest because fetch cannot report upload
 * progress. The API answers 303 to /{client}/due-diligence?success=1, which the browser follows: any 2xx at the end
 * means the request is stored. Failures reject with an {@link ApiError} carrying the API's message (spec §8).
 */
export function submitDueDiligence(
  prefix: string,
  request: DueDiligenceRequest,
  { onProgress, signal, idempotencyKey }: SubmitOptions = {},
): Promise<void> {
  const path = paths.api.dueDiligence(prefix);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    // Found by the twenty-third session's portal probe: a server that took the whole upload and never answered
    // left "Uploading… 100%" and a busy Submit request for ever. A file of 20 MB on a slow line may take minutes
    // to go, so the request as a whole has no limit: it is given up when the upload has made no progress for
    // REQUEST_TIMEOUT_MS, or when no answer has come that long after the upload ended (the calculators' 30 s).
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const stopWatching = () => clearTimeout(watchdog);
    const watch = () => {
      stopWatching();
      watchdog = setTimeout(() => {
        // Settled first: the abort that follows rejects too late to say it was cancelled.
        reject(new Error(TIMED_OUT_MESSAGE));
        xhr.abort();
      }, REQUEST_TIMEOUT_MS);
    };
    xhr.open('POST', path);
    xhr.setRequestHeader('accept', 'application/json');
    if (idempotencyKey !== undefined) xhr.setRequestHeader('idempotency-key', idempotencyKey);
    xhr.upload.addEventListener('progress', (event) => {
      watch();
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    });
    // The upload has ended: the answer has the same time to come. (Bytes of the answer arriving count too.)
    xhr.upload.addEventListener('load', watch);
    xhr.addEventListener('progress', watch);
    xhr.addEventListener('load', () => {
      stopWatching();
      if (xhr.status >= 200 && xhr.status < 300) {
        // Only the page the API sends the upload on to says it is stored: another server's 200 (a captive
        // portal's page) said "Thank you" for a request that never reached the API (found by the eighteenth
        // session's review of the portal probe's finding on the calculators).
        if (!isThankYouPage(xhr.responseURL, prefix)) {
          reject(new UnreadableAnswerError(xhr.status));
          return;
        }
        onProgress?.(1);
        resolve();
        return;
      }
      const payload = parsePayload(xhr);
      reject(new ApiError(xhr.status, failureMessage(payload, xhr.status, path)));
    });
    xhr.addEventListener('error', () => {
      stopWatching();
      reject(new Error(CONNECTION_FAILED_MESSAGE));
    });
    xhr.addEventListener('abort', () => {
      stopWatching();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(toFormData(request));
    watch();
  });
}

/** Whether an upload ended on this client's due-diligence page with `success=1`, of this site. */
function isThankYouPage(responseUrl: string, prefix: string): boolean {
  try {
    const url = new URL(responseUrl);
    return (
      url.origin === window.location.origin &&
      url.pathname === paths.app.dueDiligence(prefix) &&
      url.searchParams.get('success') === '1'
    );
  } catch {
    return false;
  }
}

/** The same rule as apiFetch: JSON when the content type says so, otherwise text. */
function parsePayload(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text || !isJsonContentType(xhr.getResponseHeader('content-type'))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
