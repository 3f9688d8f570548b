/**
 * What an application uses of the client, as one type: the reads, pinned views, refreshable components,
 * refresh and its events. `ConfigClient` implements it, and so does the test double (`createTestConfig` from
 * `@confbus/client/testing`), so code typed against it takes either.
 */
import type { ClientLogger } from './client-logger.js';
import type { ConfigClientEvents, ConfigStatus, RefreshableResult } from './config-client.js';
import type { ConfigView } from './snapshot/config-view.js';
import type { RefreshableOptions } from './snapshot/refreshable.js';

export interface ApplicationConfig extends ConfigView {
  /** A view pinned to the current snapshot: several reads through it never straddle a refresh. */
  view(): ConfigView;
  /** A component built from configuration and rebuilt after a refresh that changed a key it read. */
  refreshable<R>(
    factory: (view: ConfigView) => R,
    options?: RefreshableOptions<Awaited<R>>,
  ): RefreshableResult<R>;
  /** Applies the current configuration; resolves with the changed keys. */
  refresh(): Promise<string[]>;
  readonly status: ConfigStatus;
  readonly logger: ClientLogger;
  on<K extends keyof ConfigClientEvents>(event: K, listener: (...args: ConfigClientEvents[K]) => void): this;
  off<K extends keyof ConfigClientEvents>(event: K, listener: (...args: ConfigClientEvents[K]) => void): this;
  close(): Promise<void>;
}
