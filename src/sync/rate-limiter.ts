/**
 * A token bucket: `rate` calls per second on average, bursts of up to `burst`. Every explorer call
 * of a run takes a token first, so a sync stays under the plan's calls per second (Etherscan's
 * free plan: 3, its default) however many wallets and lists it walks.
 */
export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  /** Callers waiting, so tokens go out in call order. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly rate: number,
    private readonly burst = Math.max(1, rate),
  ) {
    this.tokens = this.burst;
  }

  take(): Promise<void> {
    const turn = this.queue.then(() => this.wait());
    this.queue = turn;
    return turn;
  }

  private async wait(): Promise<void> {
    for (;;) {
      const now = performance.now();
      this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
      this.last = now;
      if (this.tokens >= 1) {
        this.tokens -= 1;
        return;
      }
      await sleep(((1 - this.tokens) / this.rate) * 1000);
    }
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
