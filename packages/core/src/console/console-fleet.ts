/**
 * The console's fleet view in its JSON API (`GET /fleet`): every instance heard on the bus or the watch stream,
 * where it stands against its label's latest commit, and how its last refresh ended. Types only, as
 * console-api.ts.
 */
import type { RefreshOutcome } from '../bus-events/bus-event.js';
import type { ConsolePaged } from './console-api.js';

/**
 * An instance against the latest commit of its label: `current` (it serves it), `same-config` (an older commit
 * with the same effective configuration), `lagging` (its configuration differs), `unknown` (it never said which
 * version it serves, e.g. a Spring node, or nothing would be served to it).
 */
export type ConsoleSyncState = 'current' | 'same-config' | 'lagging' | 'unknown';

/** An instance heard on the bus. */
export interface ConsoleInstance {
  /** The bus id. */
  id: string;
  kind: 'confbus' | 'spring';
  application: string;
  profiles: string[];
  label: string | null;
  /** The commit it serves, as it last reported; null when it never said (Spring nodes). */
  configVersion: string | null;
  /** Null when unknown (Spring nodes). */
  startedAt: string | null;
  /** The last announcement or ack. */
  lastSeenAt: string;
  state: ConsoleSyncState;
  /** The commit the instance would get now, from the repository that serves it; null when none would. */
  latest: string | null;
  /** How its last refresh ended, as its ack said (Spring nodes: `applied`); null before its first refresh ack. */
  lastRefresh: ConsoleRefreshOutcome | null;
}

/** How an instance's refresh ended, from its ack. */
export interface ConsoleRefreshOutcome {
  outcome: RefreshOutcome;
  /** Why a `rejected` refresh was not applied. */
  reason?: string;
  /** When the ack arrived. */
  at: string;
}

/** `GET /fleet?application&state`. */
export interface ConsoleFleet extends ConsolePaged<ConsoleInstance> {
  /** Instances per state, before the `state` filter. */
  counts: Record<ConsoleSyncState, number>;
}
