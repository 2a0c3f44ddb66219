/**
 * Runs optional background work one task at a time: a task offered while another runs is not started, nor queued
 * (the caller offers it again later, if it is still wanted). For work that only makes something better, such as
 * re-compressing an answer at a smaller setting, where a queue would only grow.
 */
export class OneAtATime {
  #running = false;

  /** Whether a task is running. */
  get running(): boolean {
    return this.#running;
  }

  /**
   * Starts `task` (its synchronous start runs before this returns) unless one is running; answers whether it
   * started. The task handles its own failures: one that rejects is ended all the same.
   */
  offer(task: () => Promise<void>): boolean {
    if (this.#running) return false;
    this.#running = true;
    const done = () => {
      this.#running = false;
    };
    let started: Promise<void>;
    try {
      started = task();
    } catch {
      done();
      return true;
    }
    started.then(done, done);
    return true;
  }
}
