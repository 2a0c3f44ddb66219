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

  /** Resolves when every task started so far has finished. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }
}
