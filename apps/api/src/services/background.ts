/**
 * Work started after a response is decided (e.g. the login e-mail), so the answer does not depend on it.
 * Tracked so shutdown and tests can wait for it.
 */
export class BackgroundTasks {
  readonly #pending = new Set<Promise<void>>();

  constructor(private readonly onError: (error: unknown) => void) {}

  run(task: () => Promise<void>): void {
    const promise: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.onError(error))
      .finally(() => this.#pending.delete(promise));
    this.#pending.add(promise);
  }

  /**
   * Counts work a request is doing (an upload being stored) until it settles, so that a shutdown waits for it:
   * an upload cut off by the shutdown removes its partial file as it ends, and the process must not exit first.
   * Returns `work` unchanged (its errors are the caller's).
   */
  track<T>(work: Promise<T>): Promise<T> {
    const settled: Promise<void> = work
      .then(
        () => undefined,
        () => undefined,
      )
      .finally(() => this.#pending.delete(settled));
    this.#pending.add(settled);
    return work;
  }

  /** Resolves when every task started so far has finished. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
