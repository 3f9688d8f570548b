/**
 * Acks for refresh events not (yet) tracked. The broker routes an event to the clients, which may refresh and
 * ack it, before it confirms the publication to this server: a race of milliseconds, after which the tracker
 * registers the event and takes the acks held for it. Forged acks for ids never published would wait forever:
 * they are held for EARLY_ACK_WINDOW_MS at most (counted from the first ack held for that id), and in
 * EARLY_ACK_BYTES in all (the ids first held longest ago are let go first), so forged acks hold at most that
 * much, briefly.
 */
import type { RefreshOutcome } from '@confbus/core';
import type { Clock } from '../clock.js';

export const EARLY_ACK_WINDOW_MS = 5000;
export const EARLY_ACK_BYTES = 1024 * 1024;

/** What an ack held for an event not registered yet keeps: the fields recorded, nothing else of the message. */
export interface HeldAck {
  service: string;
  configVersion: string | undefined;
  timestamp: number;
  outcome: RefreshOutcome | undefined;
  reason: string | undefined;
}

interface HeldAcks {
  /** When the first of them was held (Clock time). */
  readonly since: number;
  bytes: number;
  readonly acks: HeldAck[];
}

export class EarlyAcks {
  /** By event id, first held first. */
  private readonly held = new Map<string, HeldAcks>();
  private heldBytes = 0;

  constructor(
    private readonly clock: Clock,
    private readonly limits: { readonly maxBytes: number; readonly windowMs: number },
  ) {}

  /** Estimated bytes of everything held. */
  get bytes(): number {
    return this.heldBytes;
  }

  /** Holds an ack (estimated at `size` bytes) for the event `eventId`, within the limits. */
  hold(eventId: string, ack: HeldAck, size: number): void {
    this.letGoOfStale();
    let held = this.held.get(eventId);
    const bytes = size + (held === undefined ? eventId.length * 2 : 0);
    if (bytes > this.limits.maxBytes) return;
    if (held === undefined) {
      held = { since: this.clock.now(), bytes: 0, acks: [] };
      this.held.set(eventId, held);
    }
    held.acks.push(ack);
    held.bytes += bytes;
    this.heldBytes += bytes;
    while (this.heldBytes > this.limits.maxBytes) {
      const [oldestId, oldest] = this.held.entries().next().value as [string, HeldAcks];
      this.forget(oldestId, oldest);
    }
  }

  /** The acks held for `eventId` (none once held too long), which are no longer held. */
  take(eventId: string): readonly HeldAck[] {
    this.letGoOfStale();
    const held = this.held.get(eventId);
    if (held === undefined) return [];
    this.forget(eventId, held);
    return held.acks;
  }

  /** Lets go of the acks held longer than the window: their event is not coming. */
  private letGoOfStale(): void {
    const oldestKept = this.clock.now() - this.limits.windowMs;
    for (const [eventId, held] of this.held) {
      if (held.since >= oldestKept) return; // held in order: the rest are younger
      this.forget(eventId, held);
    }
  }

  private forget(eventId: string, held: HeldAcks): void {
    this.held.delete(eventId);
    this.heldBytes -= held.bytes;
  }
}
