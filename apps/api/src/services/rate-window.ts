/**
 * A fixed-window counter per key, held in this process: at most `limit` events per key in each window of
 * `windowMs`. It bounds what one key can do through one instance (N instances allow N × limit), which is what
 * it is for: stopping one session from writing without end, not exact accounting across instances.
 */
export class RateWindow {
  private readonly windows = new Map<string, { startMs: number; count: number }>();

  /**
   * @param limit events allowed per key and window (≥ 1)
   * @param windowMs the window's length
   * @param maxKeys keys held at most; past it, windows already over are dropped first, then the oldest
   */
  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly maxKeys = 100_000,
  ) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error('limit must be a whole number ≥ 1');
    if (!(windowMs > 0)) throw new Error('windowMs must be > 0');
  }

  /**
   * Counts one event of `key` at `nowMs`. Answers 0 when it is within the limit, otherwise the milliseconds
   * until the key's window ends (the refused event is not counted).
   */
  hit(key: string, nowMs: number): number {
    let window = this.windows.get(key);
    if (window === undefined || nowMs - window.startMs >= this.windowMs || nowMs < window.startMs) {
      if (window !== undefined) this.windows.delete(key);
      else if (this.windows.size >= this.maxKeys) this.evict(nowMs);
      window = { startMs: nowMs, count: 0 };
      this.windows.set(key, window);
    }
    if (window.count >= this.limit) return window.startMs + this.windowMs - nowMs;
    window.count += 1;
    return 0;
  }

  /**
   * Gives back one event of `key` counted by {@link hit} at `hitMs` (a request that was let in but came to
   * nothing, so that only what was done counts), if the window it was counted in is still the key's.
   */
  release(key: string, hitMs: number): void {
    const window = this.windows.get(key);
    if (window === undefined || window.count === 0) return;
    if (hitMs < window.startMs || hitMs - window.startMs >= this.windowMs) return;
    window.count -= 1;
  }

  /** How many keys are held (for tests and metrics). */
  get size(): number {
    return this.windows.size;
  }

  private evict(nowMs: number): void {
    for (const [key, window] of this.windows) {
      if (nowMs - window.startMs >= this.windowMs) this.windows.delete(key);
    }
    // All still live: drop the oldest (a Map iterates in insertion order, and a new window is re-inserted).
    for (const key of this.windows.keys()) {
      if (this.windows.size < this.maxKeys) break;
      this.windows.delete(key);
    }
  }
}

/**
 * Two {@link RateWindow}s of one window length, one per user and one per client address (an open client's every
 * login is a new user, so the user's alone would not hold): an event counts against both or neither.
 */
export class UserAndAddressLimit {
  private readonly perUser: RateWindow;
  private readonly perAddress: RateWindow;

  constructor(userLimit: number, addressLimit: number, windowMs: number) {
    this.perUser = new RateWindow(userLimit, windowMs);
    this.perAddress = new RateWindow(addressLimit, windowMs);
  }

  /**
   * Counts one event of `user` from `address` at `nowMs`: 0 when both allow it, otherwise the milliseconds until
   * the window that refuses it ends (nothing is counted then).
   */
  hit(user: string, address: string, nowMs: number): number {
    const userWait = this.perUser.hit(user, nowMs);
    if (userWait > 0) return userWait;
    const addressWait = this.perAddress.hit(address, nowMs);
    if (addressWait > 0) this.perUser.release(user, nowMs);
    return addressWait;
  }

  /** Gives back an event counted by {@link hit} at `hitMs` that came to nothing. */
  release(user: string, address: string, hitMs: number): void {
    this.perUser.release(user, hitMs);
    this.perAddress.release(address, hitMs);
  }
}
