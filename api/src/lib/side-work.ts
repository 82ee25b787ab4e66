/**
 * Side work: what follows a request but need not delay its answer (the order confirmation e-mail).
 * Jobs run after the answer has been handed over, a few at a time; a failure is logged, as it was
 * when the work ran inside the request. The queue absorbs bursts but does not grow without bound:
 * once `maxQueued` jobs wait, `defer` runs the new job at once and waits for it, so under
 * sustained overload each request carries its own work again (backpressure) and never waits
 * behind the queue. `idle()` resolves when nothing is queued or running: app.close() waits for it,
 * so a graceful stop does not drop an e-mail, and tests await it instead of sleeping.
 */
type Job = { label: string; run: () => Promise<unknown> };

export class SideWork {
  private readonly queue: Job[] = [];
  /** Queued jobs running now (at most `concurrency`). */
  private running = 0;
  /** Jobs run at once by `defer` because the queue was full. */
  private inline = 0;
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly onError: (error: unknown, label: string) => void,
    private readonly options: { concurrency: number; maxQueued: number } = { concurrency: 2, maxQueued: 100 },
  ) {}

  /** Jobs queued or running. */
  get pending(): number {
    return this.queue.length + this.running + this.inline;
  }

  /**
   * Queues a job and resolves at once; while `maxQueued` jobs are waiting, runs it right away and
   * resolves when it has finished. Never rejects: the job's failure goes to `onError`.
   */
  defer(label: string, run: () => Promise<unknown>): Promise<void> {
    if (this.queue.length < this.options.maxQueued) {
      this.queue.push({ label, run });
      this.pump();
      return Promise.resolve();
    }
    this.inline += 1;
    return this.execute({ label, run }).then(() => {
      this.inline -= 1;
      this.settled();
    });
  }

  /** Resolves when every job queued so far (and any they queue) has finished. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private pump(): void {
    while (this.running < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift()!;
      this.running += 1;
      // setImmediate: after the I/O of this turn, so the answer that queued the job goes out first.
      setImmediate(() => {
        void this.execute(job).then(() => {
          this.running -= 1;
          this.pump();
          this.settled();
        });
      });
    }
  }

  private execute(job: Job): Promise<void> {
    return Promise.resolve()
      .then(() => job.run())
      .then(
        () => undefined,
        (error: unknown) => this.onError(error, job.label),
      );
  }

  private settled(): void {
    if (this.pending > 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
