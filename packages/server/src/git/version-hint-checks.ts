// The version hint (a commit a refresh event announced, sent by confbus clients as `X-Config-Min-Version`).
//
// When the label's head already is the announced commit, the mirror is as fresh as the push that announced it,
// so no upstream check is needed (whatever refresh-rate says). Otherwise one check, shared by every request with
// the same hint: a fleet re-fetching after one event costs one check, not one per request or per burst. Only the
// label's own head counts: a commit present elsewhere in the mirror (say, a feature branch later pushed to
// main) says nothing about the label.
//
// Anyone can send a hint (a request header, a forged bus event), and a random commit id is never anyone's head:
// so hints start at most one upstream check per interval (a second by default). A hint arriving sooner after the
// last such check waits for the next one, made when the interval ends and shared by every hint arriving
// meanwhile; after its check a request is answered with the label's head, whatever its hint said. Random hints
// therefore cost the upstream one check a second at most, and legitimate hints (pushes in quick succession) still
// see the commit they announce.
import { LruCache } from '../support/lru-cache.js';
import type { LabelResolver } from './label-resolver.js';
import type { UpstreamChecks } from './upstream-checks.js';

const HINT_CHECK_CACHE_SIZE = 256;

/** Time for the interval between hinted checks, as a port so that tests can move it. */
export interface HintTimer {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Runs `task` once `ms` have passed, without keeping the process alive; returns what cancels it. */
  after(ms: number, task: () => void): () => void;
}

const systemHintTimer: HintTimer = {
  now: () => performance.now(),
  after(ms, task) {
    const timer = setTimeout(task, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

export interface VersionHintOptions {
  /** Least time between two upstream checks started for hints. */
  intervalMs: number;
  timer?: HintTimer;
}

export class VersionHintChecks {
  /** The upstream check made for each recent hint. */
  private readonly hintChecks = new LruCache<string, Promise<void>>(HINT_CHECK_CACHE_SIZE);
  private readonly timer: HintTimer;
  /** When the last check for a hint started (timer time). */
  private lastStarted: number | undefined;
  /** The check that hints arriving within the interval share, made when it ends; and what releases it early. */
  private next: { check: Promise<void>; release: () => void } | undefined;

  constructor(
    private readonly labels: LabelResolver,
    private readonly checks: UpstreamChecks,
    private readonly options: VersionHintOptions,
  ) {
    this.timer = options.timer ?? systemHintTimer;
  }

  /**
   * The check to wait for so that the mirror holds `atLeast` (lower-case hex) at `requested`'s head, or may not
   * get it (an outage, or a commit upstream does not have either); undefined when there is nothing to wait for.
   */
  freshenFor(requested: string, atLeast: string): Promise<unknown> | undefined {
    if (this.satisfied(requested, atLeast)) return undefined;
    let check = this.hintChecks.get(atLeast);
    if (check === undefined) {
      check = this.checkForHints();
      this.hintChecks.set(atLeast, check);
    }
    return Promise.race([check, this.checks.outageStarted()]);
  }

  /** Nothing to wait for: `atLeast` is `requested`'s head, or there is an outage. Starts nothing. */
  satisfied(requested: string, atLeast: string): boolean {
    return this.checks.stale || this.labels.isHead(this.labels.headLabel(requested), atLeast);
  }

  /** Releases requests waiting for the next hinted check (the mirror is closing): they get what is there. */
  close(): void {
    this.next?.release();
  }

  /** An upstream check that starts no earlier than now, at most one per interval (see the top of the file). */
  private checkForHints(): Promise<void> {
    if (this.next !== undefined) return this.next.check;
    const wait =
      this.lastStarted === undefined ? 0 : this.lastStarted + this.options.intervalMs - this.timer.now();
    if (wait <= 0) return this.startCheck();
    let release!: () => void;
    const check = new Promise<void>((resolve) => {
      const cancel = this.timer.after(wait, () => {
        this.next = undefined;
        void this.startCheck().then(resolve);
      });
      release = () => {
        cancel();
        this.next = undefined;
        resolve();
      };
    });
    this.next = { check, release };
    return check;
  }

  private startCheck(): Promise<void> {
    this.lastStarted = this.timer.now();
    return this.checks.requestFresh().then(() => undefined);
  }
}
