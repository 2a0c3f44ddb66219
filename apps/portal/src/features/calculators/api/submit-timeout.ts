/** How long a calculator submission may take before the screen offers to try again. */
export const SUBMIT_TIMEOUT_MS = 30_000;
