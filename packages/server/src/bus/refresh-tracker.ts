/**
 * Remembers the refresh events this server published (and those other config servers announced on the same
 * bus) and the acks that came back, so an operator can see
 * which services picked up which config version and how long it took. Spring records nothing (its trace
 * store is commented out, spring-cloud-bus#278).
 *
 * Acks come from the network and anyone on the broker can forge them, so everything here is bounded: events
 * kept, acks per event (one per service), the estimated bytes of all acks together, and acks held for events not
 * registered yet (by bytes, and for a few seconds only). Acks with oversized fields are ignored; acks beyond a
 * bound are counted, not kept.
 */
import type { AckBusEvent, ConsoleAck, Logger, RefreshBusEvent } from '@confbus/core';
import { type Clock, systemClock } from '../clock.js';
import { EARLY_ACK_BYTES, EARLY_ACK_WINDOW_MS, EarlyAcks, type HeldAck } from './early-acks.js';

/** An ack as recorded, and as /actuator/refresh-events and the console both list it. */
export type TrackedAck = ConsoleAck;

export interface TrackedRefresh {
  id: string;
  destination: string;
  commit: string;
  publishedAt: string;
  /** Acks recorded (one per service); `acks` may list fewer when the listing limits them. */
  ackCount: number;
  /** Acks not recorded because a bound was reached. */
  droppedAcks: number;
  /** Of the acks recorded, those whose instance kept its configuration (`outcome: rejected`). */
  rejectedAcks: number;
  acks: TrackedAck[];
}

export interface RefreshTrackerLimits {
  /** Events kept, newest first (older ones are forgotten). */
  maxEvents: number;
  /** Acks (distinct services) recorded per event. */
  maxAcksPerEvent: number;
  /** Estimated memory of all recorded acks together; the oldest events are forgotten first. */
  maxBytes: number;
  /** Estimated memory of the acks held for events not registered yet (default EARLY_ACK_BYTES). */
  earlyAckBytes?: number;
  /** How long such an ack waits for its event (default EARLY_ACK_WINDOW_MS). */
  earlyAckWindowMs?: number;
}

export interface RefreshListing {
  /** Events newest first. */
  events: TrackedRefresh[];
  /** Events kept in all. */
  total: number;
}

/** Longest service id (origin) recorded; Spring's ids are `app:profiles:port:32-hex-random`. */
export const MAX_ACK_SERVICE_LENGTH = 512;
/** Longest config version recorded (a SHA-1 or SHA-256 commit id, with room to spare). */
export const MAX_ACK_VERSION_LENGTH = 128;
/** Per-ack bookkeeping beyond its strings (object, map entry). */
const ACK_OVERHEAD_BYTES = 96;
export { EARLY_ACK_BYTES, EARLY_ACK_WINDOW_MS } from './early-acks.js';

export const DEFAULT_TRACKER_LIMITS: RefreshTrackerLimits = {
  maxEvents: 200,
  maxAcksPerEvent: 10_000,
  maxBytes: 16 * 1024 * 1024,
};

interface Tracked {
  readonly id: string;
  readonly destination: string;
  readonly commit: string;
  readonly publishedMs: number;
  readonly acks: Map<string, TrackedAck>;
  bytes: number;
  dropped: number;
  rejected: number;
  slowestMs: number;
  readonly versions: Map<string, number>;
  timer?: NodeJS.Timeout;
}

export class RefreshTracker {
  private readonly events = new Map<string, Tracked>();
  private bytes = 0;
  /** Acks that arrived before their event was registered (early-acks.ts). */
  private readonly early: EarlyAcks;
  private readonly summaryQuietMs: number;

  constructor(
    private readonly logger: Logger,
    private readonly limits: RefreshTrackerLimits = DEFAULT_TRACKER_LIMITS,
    options: { summaryQuietMs?: number; clock?: Clock } = {},
  ) {
    this.summaryQuietMs = options.summaryQuietMs ?? 2000;
    this.early = new EarlyAcks(options.clock ?? systemClock, {
      maxBytes: limits.earlyAckBytes ?? EARLY_ACK_BYTES,
      windowMs: limits.earlyAckWindowMs ?? EARLY_ACK_WINDOW_MS,
    });
  }

  /** Estimated bytes of the acks held for events not registered yet. */
  get heldAckBytes(): number {
    return this.early.bytes;
  }

  /** An event this server published, or (with several servers) one another server announced on the bus. */
  published(event: RefreshBusEvent, commit: string): void {
    if (this.events.has(event.id)) return; // a redelivery keeps the acks already recorded
    this.events.set(event.id, {
      id: event.id,
      destination: event.destinationService,
      commit,
      publishedMs: event.timestamp,
      acks: new Map(),
      bytes: 0,
      dropped: 0,
      rejected: 0,
      slowestMs: 0,
      versions: new Map(),
    });
    while (this.events.size > this.limits.maxEvents) this.forgetOldest();
    this.scheduleSummary(event.id);
    const held = this.early.take(event.id);
    const tracked = this.events.get(event.id);
    if (tracked !== undefined) for (const ack of held) this.record(tracked, ack);
  }

  acked(ack: AckBusEvent): void {
    const held: HeldAck = {
      service: ack.originService,
      configVersion: ack.configVersion,
      timestamp: ack.timestamp,
      outcome: ack.outcome,
      reason: ack.reason,
    };
    if (held.service.length > MAX_ACK_SERVICE_LENGTH) return;
    if (held.configVersion !== undefined && held.configVersion.length > MAX_ACK_VERSION_LENGTH) return;
    const tracked = this.events.get(ack.ackId);
    // Not tracked yet, or never.
    if (!tracked) this.early.hold(ack.ackId, held, ackBytes(held));
    else this.record(tracked, held);
  }

  private record(tracked: Tracked, ack: HeldAck): void {
    const { service, configVersion, reason } = ack;
    if (tracked.acks.has(service)) return; // the first ack of a service is the one that tells
    const size = ackBytes(ack);
    if (tracked.acks.size >= this.limits.maxAcksPerEvent || !this.makeRoom(size, tracked)) {
      tracked.dropped++;
      return;
    }
    const afterMs = Math.max(0, ack.timestamp - tracked.publishedMs);
    // An ack without an outcome (a Spring node, an older confbus client) says the refresh went through.
    const outcome = ack.outcome ?? 'applied';
    tracked.acks.set(service, {
      service,
      afterMs,
      ...(configVersion ? { configVersion } : {}),
      outcome,
      ...(outcome === 'rejected' && reason !== undefined ? { reason } : {}),
    });
    if (outcome === 'rejected') tracked.rejected++;
    tracked.bytes += size;
    this.bytes += size;
    tracked.slowestMs = Math.max(tracked.slowestMs, afterMs);
    const version = configVersion?.slice(0, 12) ?? 'unknown';
    tracked.versions.set(version, (tracked.versions.get(version) ?? 0) + 1);
    this.scheduleSummary(tracked.id);
  }

  /** A page of events, newest first, each listing at most `ackLimit` acks (in arrival order). */
  list(page: { offset?: number; limit?: number; ackLimit?: number } = {}): RefreshListing {
    const newestFirst = [...this.events.values()].reverse();
    const offset = page.offset ?? 0;
    const selected = newestFirst.slice(offset, offset + (page.limit ?? newestFirst.length));
    const ackLimit = page.ackLimit ?? this.limits.maxAcksPerEvent;
    return {
      total: newestFirst.length,
      events: selected.map((t) => ({
        id: t.id,
        destination: t.destination,
        commit: t.commit,
        publishedAt: new Date(t.publishedMs).toISOString(),
        ackCount: t.acks.size,
        droppedAcks: t.dropped,
        rejectedAcks: t.rejected,
        acks: firstValues(t.acks, ackLimit),
      })),
    };
  }

  close(): void {
    for (const tracked of this.events.values()) clearTimeout(tracked.timer);
  }

  /** Forgets the oldest events other than `keep` until `size` more bytes fit; false when they cannot. */
  private makeRoom(size: number, keep: Tracked): boolean {
    while (this.bytes + size > this.limits.maxBytes) {
      const oldest = this.events.values().next().value as Tracked;
      if (oldest === keep) return false;
      this.forgetOldest();
    }
    return true;
  }

  private forgetOldest(): void {
    const oldest = this.events.values().next().value as Tracked | undefined;
    if (!oldest) return;
    clearTimeout(oldest.timer);
    this.bytes -= oldest.bytes;
    this.events.delete(oldest.id);
  }

  /** One summary line per event, once acks have stopped arriving for a moment. */
  private scheduleSummary(id: string): void {
    const tracked = this.events.get(id);
    if (!tracked) return;
    clearTimeout(tracked.timer);
    tracked.timer = setTimeout(() => {
      // At most a few versions in the line: forged acks could name thousands.
      const shown = [...tracked.versions].slice(0, 5).map(([v, n]) => `${v}×${n}`);
      if (tracked.versions.size > shown.length) shown.push(`${tracked.versions.size - shown.length} more`);
      const versions = shown.join(', ') || 'none';
      this.logger.info(
        {
          event: tracked.id,
          destination: tracked.destination,
          acks: tracked.acks.size,
          droppedAcks: tracked.dropped,
          rejectedAcks: tracked.rejected,
          slowestMs: tracked.slowestMs,
        },
        `Refresh ${tracked.id} for ${tracked.destination} at ${tracked.commit.slice(0, 12)}: ` +
          `${tracked.acks.size} ack(s)${tracked.rejected > 0 ? ` (${tracked.rejected} rejected)` : ''}, slowest after ${tracked.slowestMs} ms, versions ${versions}`,
      );
    }, this.summaryQuietMs);
    tracked.timer.unref();
  }
}

function firstValues<V>(map: ReadonlyMap<string, V>, limit: number): V[] {
  const out: V[] = [];
  for (const value of map.values()) {
    if (out.length >= limit) break;
    out.push(value);
  }
  return out;
}

/** Estimated memory of one recorded or held ack (the reason is bounded by the bus decoder). */
function ackBytes({ service, configVersion, reason }: HeldAck): number {
  return (service.length + (configVersion?.length ?? 0) + (reason?.length ?? 0)) * 2 + ACK_OVERHEAD_BYTES;
}
