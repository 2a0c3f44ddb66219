/**
 * A new `Idempotency-Key` for a submission (a calculator's estimate, a due-diligence request): 128 random bits in
 * hex. `crypto.randomUUID` needs a secure context; this does not.
 */
export function newSubmissionKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, '0'),
  ).join('');
}
