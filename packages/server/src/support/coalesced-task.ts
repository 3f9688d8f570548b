// Runs at most one instance of an async task at a time. A caller arriving while a run is in flight
// gets the NEXT run (started when the current one ends, shared by everyone who arrived meanwhile),
// so its result reflects the world as it was at or after the moment the caller asked.

export class CoalescedTask<T> {
  private inFlight: Promise<T> | undefined;
  private next: { promise: Promise<T>; resolve: (v: T) => void; reject: (e: unknown) => void } | undefined;

  constructor(private readonly task: () => Promise<T>) {}

  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /** A run that starts no earlier than now. */
  requestFresh(): Promise<T> {
    if (!this.inFlight) return this.start();
    if (!this.next) {
      let resolve!: (v: T) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      this.next = { promise, resolve, reject };
    }
    return this.next.promise;
  }

  /** The run in flight if there is one, otherwise a new run. */
  requestAny(): Promise<T> {
    return this.inFlight ?? this.start();
  }

  private start(): Promise<T> {
    // Deferred by one tick so even a task that throws synchronously settles after inFlight is set.
    const run = Promise.resolve().then(() => this.task());
    this.inFlight = run;
    // Registered before any caller's continuation, so the hand-over happens before callers resume and
    // no caller can slip in between two runs and start a third.
    const handOver = () => {
      this.inFlight = undefined;
      const waiting = this.next;
      this.next = undefined;
      if (waiting) this.start().then(waiting.resolve, waiting.reject);
    };
    run.then(handOver, handOver);
    return run;
  }
}
