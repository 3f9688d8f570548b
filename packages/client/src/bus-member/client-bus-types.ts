/** The client bus member's options and answers, and what it needs of the config client (client-bus.ts). */
import type { Logger, RefreshBusEvent } from '@confbus/core';
import type { ClientSettings } from '../client-settings.js';

/** What the bus needs from the config client (kept narrow so the two stay decoupled). */
export interface BusRefreshTarget {
  /** A refresh for a bus event. `atLeast`: the event's version hint, the commit the server should answer with at least. */
  refresh(options: { atLeast?: string | undefined }): Promise<string[]>;
  /** Fetches; refreshes only when the server's version differs. `null` = same version. */
  refreshIfVersionChanged(): Promise<{ keys: string[]; from: string | null; to: string | null } | null>;
  /** The current `config.client.version` (null before any fetch succeeded). */
  currentVersion(): string | null;
  /** `busenv`: set these properties, then refresh. */
  applyEnvironment(values: Readonly<Record<string, string>>): Promise<string[]>;
  /** `busshutdown`: shut the application down gracefully. */
  shutdown(): Promise<void>;
  /**
   * The contract the application's bound schemas make, sent with each presence announcement so the config
   * servers' contract gate enforces it (undefined: nothing bound with a JSON-Schema-capable schema).
   */
  contract?(): Readonly<Record<string, unknown>> | undefined;
}

export interface ClientBusOptions {
  /** The client's settings: the bus's own, and the names its bus id and presence announcements carry. */
  readonly settings: Pick<ClientSettings, 'bus' | 'applicationName' | 'name' | 'profiles' | 'labels'>;
  readonly target: BusRefreshTarget;
  readonly logger: Logger;
}

export interface BusHealth {
  readonly status: 'UP' | 'DOWN';
  readonly details: {
    readonly busId: string;
    readonly destination: string;
    readonly connected: boolean;
    /** While DOWN after a failed attempt: why (described, redacted) and the error's code. */
    readonly lastError?: string;
    readonly lastErrorCode?: string;
  };
}

/** The `bus` health component of a bus that has not started yet. */
export interface BusWaitingHealth {
  readonly status: 'UNKNOWN';
  readonly details: { readonly reason: string };
}

/** Outcome of `refreshAndPublish`: what happened here and on the bus. */
export interface BusRefreshOutcome {
  readonly event: RefreshBusEvent;
  /** Changed keys on this node, or `null` when it did not refresh (not addressed, or switched off). */
  readonly localKeys: string[] | null;
}
