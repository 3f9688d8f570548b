/**
 * Remembers the refresh events this server published and the acks that came back, so an operator can see
 * which services picked up which config version and how long it took. Spring records nothing (its trace
 * store is commented out, spring-cloud-bus#278).
 */
import type { AckBusEvent, RefreshBusEvent } from '@confbus/core';

export interface TrackedAck {
  service: string;
  /** Milliseconds from publication to the ack. */
  afterMs: number;
  /** The config version (commit) the service reports it serves, when it says (confbus clients do). */
  configVersion?: string;
}

export interface TrackedRefresh {
  id: string;
  destination: string;
  commit: string;
  publishedAt: string;
  acks: TrackedAck[];
}

export interface TrackerLogger {
  info(obj: object, msg?: string): void;
}

export class RefreshTracker {
  private readonly events = new Map<
    string,
    { entry: TrackedRefresh; publishedMs: number; timer?: NodeJS.Timeout }
  >();

  constructor(
    private readonly logger: TrackerLogger,
    private readonly options: { keep: number; summaryQuietMs: number } = { keep: 200, summaryQuietMs: 2000 },
  ) {}

  published(event: RefreshBusEvent, commit: string): void {
    const entry: TrackedRefresh = {
      id: event.id,
      destination: event.destinationService,
      commit,
      publishedAt: new Date(event.timestamp).toISOString(),
      acks: [],
    };
    this.events.set(event.id, { entry, publishedMs: event.timestamp });
    while (this.events.size > this.options.keep) {
      const oldest = this.events.keys().next().value as string;
      clearTimeout(this.events.get(oldest)?.timer);
      this.events.delete(oldest);
    }
    this.scheduleSummary(event.id);
  }

  acked(ack: AckBusEvent): void {
    const tracked = this.events.get(ack.ackId);
    if (!tracked) return;
    const configVersion = ack.configVersion;
    tracked.entry.acks.push({
      service: ack.originService,
      afterMs: Math.max(0, ack.timestamp - tracked.publishedMs),
      ...(configVersion ? { configVersion } : {}),
    });
    this.scheduleSummary(ack.ackId);
  }

  /** Newest first. */
  list(): TrackedRefresh[] {
    return [...this.events.values()].map((t) => t.entry).reverse();
  }

  close(): void {
    for (const tracked of this.events.values()) clearTimeout(tracked.timer);
  }

  /** One summary line per event, once acks have stopped arriving for a moment. */
  private scheduleSummary(id: string): void {
    const tracked = this.events.get(id);
    if (!tracked) return;
    clearTimeout(tracked.timer);
    tracked.timer = setTimeout(() => {
      const { entry } = tracked;
      const versions = new Map<string, number>();
      for (const ack of entry.acks) {
        const v = ack.configVersion?.slice(0, 12) ?? 'unknown';
        versions.set(v, (versions.get(v) ?? 0) + 1);
      }
      const slowest = Math.max(0, ...entry.acks.map((a) => a.afterMs));
      this.logger.info(
        { event: entry.id, destination: entry.destination, acks: entry.acks.length, slowestMs: slowest },
        `Refresh ${entry.id} for ${entry.destination} at ${entry.commit.slice(0, 12)}: ${entry.acks.length} ack(s), ` +
          `slowest after ${slowest} ms, versions ${[...versions].map(([v, n]) => `${v}×${n}`).join(', ') || 'none'}`,
      );
    }, this.options.summaryQuietMs);
    tracked.timer.unref();
  }
}
