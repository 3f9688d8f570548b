// The one deadline of every upstream operation, whatever the transport: `git.timeout` seconds without a byte from
// the upstream end it (a transfer that keeps moving is never cut). git child processes (git-process.ts), the
// git:// refs reader (git-daemon-refs.ts) and the smart-HTTP one (git-http-refs.ts) all run under it, and name
// the setting to raise in the same words.
//
// An upstream's files are never read in this process: an open() of a file on a hung mount (or a FIFO) blocks one
// of libuv's four file-system threads for good, and cannot be cancelled, so four such reads would freeze every
// file read of the server. A local (path or file://) upstream is read by git child processes, which the
// deadline kills with their process group.

export interface IdleDeadlineOptions {
  /** Expire after this many ms without activity(); 0 or undefined = never. */
  idleTimeoutMs?: number | undefined;
  /** Named in the reason, e.g. the setting that controls the timeout. */
  idleTimeoutHint?: string | undefined;
}

/** Expires `idleTimeoutMs` after its start or the last activity(), once, with a reason naming the setting. */
export class IdleDeadline {
  /** Why it expired, once it has. */
  reason: string | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: IdleDeadlineOptions,
    private readonly expire: (reason: string) => void,
  ) {
    this.activity();
  }

  /** A sign of life from the upstream: the deadline starts again. */
  activity(): void {
    const { idleTimeoutMs, idleTimeoutHint } = this.options;
    if (!idleTimeoutMs || idleTimeoutMs <= 0 || this.reason !== undefined) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      const hint = idleTimeoutHint ? ` (${idleTimeoutHint})` : '';
      this.reason = `timed out: no data from the upstream for ${idleTimeoutMs / 1000} s${hint}`;
      this.expire(this.reason);
    }, idleTimeoutMs);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
