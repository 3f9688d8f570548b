// When the mirror checks its upstream, and what it knows about the upstream's health.
//
// Freshness with refresh-rate 0: a request waits for a check that STARTED after it arrived, shared with everyone
// else waiting (CoalescedTask), so a GET after a push sees the push, at most one check runs at a time, and a
// burst of N requests costs 1-2 checks instead of N serialised fetches.
//
// During an outage nothing waits: the last fetched state is served at once while background checks (one at a
// time, with backoff) look for the recovery. A request waiting on the check that discovers an outage is
// released as soon as it is discovered.
import type { EventEmitter } from 'node:events';
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { CoalescedTask } from '../support/coalesced-task.js';
import type { FetchOutcome, GitMirrorEvents } from './mirror-types.js';
import type { UpstreamSync } from './upstream-sync.js';
import { redactText } from './uri.js';

export interface UpstreamChecksOptions {
  sync: UpstreamSync;
  /** 0 = check for every request (coalesced); N = at most one check per N s; < 0 = never. */
  refreshRateSeconds: number;
  /** Background check backoff during an outage (ms). */
  outageRetryMs: { min: number; max: number };
  safeUri: string;
  secrets: readonly string[];
  /** A state can be served (the first clone finished). */
  hasFetched: () => boolean;
  /** Refs held now, for an outcome without a check. */
  refCount: () => number;
  /** git was killed by close(): its failure is no outage. */
  closed: () => boolean;
  /** The mirror, which emits 'fetched', 'stale' and 'recovered'. */
  events: Pick<EventEmitter<GitMirrorEvents>, 'emit'>;
  logger: Logger;
}

export class UpstreamChecks {
  private readonly check = new CoalescedTask(() => this.runCheck());
  checks = 0;
  lastCheckAt: Date | undefined;
  lastSuccessAt: Date | undefined;
  lastError: string | undefined;
  staleSince: Date | undefined;
  private lastCheckMonotonic: number | undefined;
  /** When the last successful check started: the mirror holds every push made before it. */
  private syncedMonotonic: number | undefined;
  /** The background check of an outage, and the delay before the next one. */
  private probeTimer: NodeJS.Timeout | undefined;
  private probeDelayMs: number;
  /** Resolved when the next outage starts, so requests waiting on a hung check are answered at once. */
  private nextOutage: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(private readonly options: UpstreamChecksOptions) {
    this.probeDelayMs = options.outageRetryMs.min;
  }

  get stale(): boolean {
    return this.staleSince !== undefined;
  }

  /** A check that starts no earlier than now (coalesced with everyone else asking). Never rejects. */
  requestFresh(): Promise<FetchOutcome> {
    return this.check.requestFresh();
  }

  /**
   * Checks upstream as refresh-rate demands: the check to wait for (settled at the latest when an outage is
   * discovered), or undefined when none is due (an answer from memory then takes no further turn).
   */
  freshen(): Promise<unknown> | undefined {
    if (!this.due()) return undefined;
    const check = this.options.refreshRateSeconds === 0 ? this.check.requestFresh() : this.check.requestAny();
    return Promise.race([check, this.outageStarted()]);
  }

  /** Whether refresh-rate demands a check before the next answer (always with 0); starts nothing. */
  due(): boolean {
    const rate = this.options.refreshRateSeconds;
    if (rate < 0 || this.stale) return false;
    if (rate === 0) return true;
    return (
      this.lastCheckMonotonic === undefined || performance.now() - this.lastCheckMonotonic >= rate * 1000
    );
  }

  /** Whether the state served now was listed by a check that started at or after `monotonicMs` (performance.now()). */
  freshSince(monotonicMs: number): boolean {
    return this.syncedMonotonic !== undefined && this.syncedMonotonic >= monotonicMs;
  }

  /** Settles when the next outage is discovered. */
  outageStarted(): Promise<void> {
    if (!this.nextOutage) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.nextOutage = { promise, resolve };
    }
    return this.nextOutage.promise;
  }

  close(): void {
    clearTimeout(this.probeTimer);
  }

  /** One upstream check. Never throws. */
  private async runCheck(): Promise<FetchOutcome> {
    this.checks++;
    const started = performance.now();
    this.lastCheckMonotonic = started;
    this.lastCheckAt = new Date();
    try {
      const { changed, refs } = await this.options.sync.sync();
      this.syncedMonotonic = started;
      this.markHealthy();
      this.options.logger.debug({ uri: this.options.safeUri, changed, refs }, 'Checked Git upstream');
      this.options.events.emit('fetched', { changed, refs });
      return { changed, refs, stale: false };
    } catch (error) {
      const message = redactText(messageOf(error), this.options.secrets);
      this.markStale(message);
      this.scheduleProbe();
      return { changed: false, refs: this.options.refCount(), stale: true, error: message };
    }
  }

  /** The next background check of an outage; health recovers through it, without any request. */
  private scheduleProbe(): void {
    if (this.options.closed() || this.probeTimer !== undefined || !this.stale || !this.options.hasFetched())
      return;
    const delay = this.probeDelayMs;
    this.probeDelayMs = Math.min(delay * 2, this.options.outageRetryMs.max);
    this.probeTimer = setTimeout(() => {
      this.probeTimer = undefined;
      void this.check.requestAny();
    }, delay);
    this.probeTimer.unref();
  }

  private markHealthy(): void {
    this.lastSuccessAt = new Date();
    this.lastError = undefined;
    this.probeDelayMs = this.options.outageRetryMs.min;
    clearTimeout(this.probeTimer);
    this.probeTimer = undefined;
    if (this.staleSince === undefined) return;
    const staleSince = this.staleSince;
    this.staleSince = undefined;
    const uri = this.options.safeUri;
    this.options.logger.info(
      { uri, staleSince: staleSince.toISOString() },
      'Git upstream reachable again; serving fresh configuration',
    );
    this.options.events.emit('recovered', { uri, staleSince });
  }

  private markStale(message: string): void {
    this.lastError = message;
    if (this.options.closed()) return; // git killed by close() is not an outage
    if (this.staleSince !== undefined) return; // one warning per outage, not per request
    this.staleSince = new Date();
    this.nextOutage?.resolve();
    this.nextOutage = undefined;
    const uri = this.options.safeUri;
    this.options.logger.warn(
      { uri, err: message },
      this.options.hasFetched()
        ? 'Git upstream unreachable; serving the last fetched state until it recovers'
        : 'Git upstream unreachable and no local copy exists',
    );
    this.options.events.emit('stale', { uri, error: message });
  }
}
