/**
 * What `confbus run` and `confbus render` follow: the current configuration and word of each change that
 * passed the client's checks. Today the config client (client-config-feed.ts) is the one feed: its fetch at
 * start, then its refreshes from the bus, the server's watch stream (with no bus: docs/watch.md), the
 * safety-net poll or `/actuator/refresh`.
 */
import type { ConfigSourceKind, ConfigView } from '@confbus/client';

/** One configuration, fixed: reads through `view` never straddle a refresh. */
export interface ConfigState {
  /** The config server's version (the commit), null when it sent none. */
  readonly version: string | null;
  /** Where it came from: the server, or the last-known-good backup (`local` is refused at start). */
  readonly source: ConfigSourceKind;
  /**
   * The keys the configuration holds (the server's property sources, values set by `busenv`), highest
   * precedence first; neither the local settings that fetched them nor `config.client.*` are among them.
   */
  readonly keys: readonly string[];
  /** Values with placeholders resolved, `{cipher}` values decrypted. */
  readonly view: ConfigView;
}

export interface ConfigFeedListener {
  /** A new configuration, fetched, parsed and decrypted; a failed one is never passed on. */
  changed(state: ConfigState): void;
  /** The fleet asked this node to shut down (a `busshutdown` addressed to it). */
  shutdownRequested(): void;
}

export interface ConfigFeed {
  readonly current: ConfigState;
  /** Starts telling `listener` about changes; call once. */
  follow(listener: ConfigFeedListener): void;
  close(): Promise<void>;
}
