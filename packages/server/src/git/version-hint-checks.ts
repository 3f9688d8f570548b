// The version hint (a commit a refresh event announced, sent by confbus clients as `X-Config-Min-Version`).
//
// When the label's head already is the announced commit, the mirror is as fresh as the push that announced it,
// so no upstream check is needed (whatever refresh-rate says). Otherwise one check, shared by every request with
// the same hint: a fleet re-fetching after one event costs one check, not one per request or per burst. Only the
// label's own head counts: a commit present elsewhere in the mirror (say, a feature branch later pushed to
// main) says nothing about the label.
import { LruCache } from '../environment/lru-cache.js';
import type { LabelResolver } from './label-resolver.js';
import type { UpstreamChecks } from './upstream-checks.js';

const HINT_CHECK_CACHE_SIZE = 256;

export class VersionHintChecks {
  /** The upstream check made for each recent hint. */
  private readonly hintChecks = new LruCache<string, Promise<void>>(HINT_CHECK_CACHE_SIZE);

  constructor(
    private readonly labels: LabelResolver,
    private readonly checks: UpstreamChecks,
  ) {}

  /**
   * The check to wait for so that the mirror holds `atLeast` (lower-case hex) at `requested`'s head, or may not
   * get it (an outage); undefined when there is nothing to wait for.
   */
  freshenFor(requested: string, atLeast: string): Promise<unknown> | undefined {
    if (this.satisfied(requested, atLeast)) return undefined;
    let check = this.hintChecks.get(atLeast);
    if (check === undefined) {
      check = this.checks.requestFresh().then(() => undefined);
      this.hintChecks.set(atLeast, check);
    }
    return Promise.race([check, this.checks.outageStarted()]);
  }

  /** Nothing to wait for: `atLeast` is `requested`'s head, or there is an outage. Starts nothing. */
  satisfied(requested: string, atLeast: string): boolean {
    return this.checks.stale || this.labels.isHead(this.labels.headLabel(requested), atLeast);
  }
}
