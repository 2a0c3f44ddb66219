/** The message to show for a failure: the API's (already per spec §8), else the error's own, else the fallback. */
export function messageOf(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof Error && error.message.trim() !== '') return error.message;
  return fallback;
}
