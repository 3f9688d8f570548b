/**
 * Every instance the server has heard on the bus: confbus nodes from their presence announcements (and the
 * config version their acks report), Spring nodes from their acks (to refresh events and to presence requests,
 * which Spring acks like any event addressed to it). Instances not heard from for `expireAfterMs` are dropped, a
 * node that announces it is leaving is dropped at once, and the table holds at most `maxInstances`
 * (the longest silent go first), so a noisy bus cannot grow it without bound.
 */
import {
  type AckBusEvent,
  type ConsoleInstance,
  type ConsoleRefreshOutcome,
  type PresenceAnnouncement,
  acksRefresh,
} from '@confbus/core';

/** What the registry knows of an instance: the fleet answer's entry without where it stands (FleetStatus). */
export type FleetInstance = Omit<ConsoleInstance, 'state' | 'latest'>;

export interface FleetRegistryOptions {
  maxInstances: number;
  expireAfterMs: number;
}

export class FleetRegistry {
  private readonly instances = new Map<string, { instance: FleetInstance; seenMs: number }>();

  constructor(private readonly options: FleetRegistryOptions) {}

  /** A confbus node's announcement; returns whether the table changed. */
  announced(announcement: PresenceAnnouncement, nowMs = Date.now()): boolean {
    if (announcement.leaving) return this.instances.delete(announcement.service);
    const known = this.instances.get(announcement.service)?.instance;
    this.put(
      {
        id: announcement.service,
        kind: 'confbus',
        application: announcement.application,
        profiles: [...announcement.profiles],
        label: announcement.label,
        configVersion: announcement.configVersion,
        startedAt: new Date(announcement.startedAt).toISOString(),
        lastSeenAt: new Date(nowMs).toISOString(),
        lastRefresh: known?.lastRefresh ?? null,
      },
      nowMs,
    );
    return true;
  }

  /**
   * Any ack proves its sender is alive; one carrying a config version comes from a confbus node. An ack of a
   * refresh says how the instance's last refresh ended (without an outcome, as from Spring nodes: applied).
   */
  acked(ack: AckBusEvent, nowMs = Date.now()): void {
    const known = this.instances.get(ack.originService)?.instance;
    const fromBusId = partsOfBusId(ack.originService);
    this.put(
      {
        id: ack.originService,
        kind: known?.kind === 'confbus' || ack.configVersion !== undefined ? 'confbus' : 'spring',
        application: known?.application ?? fromBusId.application,
        profiles: known?.profiles ?? fromBusId.profiles,
        label: known?.label ?? null,
        configVersion: ack.configVersion ?? known?.configVersion ?? null,
        startedAt: known?.startedAt ?? null,
        lastSeenAt: new Date(nowMs).toISOString(),
        lastRefresh: acksRefresh(ack) ? refreshOutcomeOf(ack, nowMs) : (known?.lastRefresh ?? null),
      },
      nowMs,
    );
  }

  /** Sorted by application, then id; expired instances are dropped first. */
  list(nowMs = Date.now()): FleetInstance[] {
    for (const [id, entry] of this.instances)
      if (nowMs - entry.seenMs > this.options.expireAfterMs) this.instances.delete(id);
    return [...this.instances.values()]
      .map((entry) => entry.instance)
      .sort((a, b) => a.application.localeCompare(b.application) || a.id.localeCompare(b.id));
  }

  /** One instance by bus id, if heard from (expired or not). */
  find(id: string): FleetInstance | undefined {
    return this.instances.get(id)?.instance;
  }

  get size(): number {
    return this.instances.size;
  }

  private put(instance: FleetInstance, nowMs: number): void {
    // Re-inserted, so Map order is "least recently heard first" and the bound drops the longest silent.
    this.instances.delete(instance.id);
    this.instances.set(instance.id, { instance, seenMs: nowMs });
    while (this.instances.size > this.options.maxInstances) {
      const oldest = this.instances.keys().next();
      if (oldest.done) break;
      this.instances.delete(oldest.value);
    }
  }
}

function refreshOutcomeOf(ack: AckBusEvent, nowMs: number): ConsoleRefreshOutcome {
  const at = new Date(nowMs).toISOString();
  if (ack.outcome !== 'rejected') return { outcome: 'applied', at };
  return { outcome: 'rejected', at, ...(ack.reason !== undefined ? { reason: ack.reason } : {}) };
}

/** `app:port:random` or `app:profiles:port:random` (Spring's and confbus's default ids); anything else is all app. */
function partsOfBusId(id: string): { application: string; profiles: string[] } {
  const parts = id.split(':');
  const application = (parts[0] ?? id).slice(0, 200);
  const profiles = parts.length >= 4 ? (parts[1] ?? '').split(',').filter((p) => p !== '') : [];
  return { application, profiles: profiles.slice(0, 32) };
}
