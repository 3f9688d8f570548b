/**
 * The reads an ApplicationConfig serves, over a LiveConfig and its Refresher: one copy for the client and its
 * test double, so the double answers exactly as the client does (always the current snapshot).
 */
import { EventEmitter } from 'node:events';
import type { PropertyValue } from '@confbus/core';
import type { ConfigClientEvents, ConfigStatus, RefreshableResult } from './config-client.js';
import type { Refresher } from './refresh/refresher.js';
import type { BoundObject, BoundValue, ConfigSchema, ConfigView } from './snapshot/config-view.js';
import type { LiveConfig } from './snapshot/live-config.js';
import type { Refreshable, RefreshableFactory, RefreshableOptions } from './snapshot/refreshable.js';

export abstract class LiveConfigReads extends EventEmitter<ConfigClientEvents> {
  protected abstract readonly live: LiveConfig;
  protected abstract readonly refresher: Refresher;

  /** Where the configuration came from, its version, and the last refresh failure. */
  get status(): ConfigStatus {
    return { ...this.live.snapshot.meta, lastRefreshError: this.refresher.lastError };
  }

  get(key: string): PropertyValue | undefined {
    return this.live.view.get(key);
  }
  has(key: string): boolean {
    return this.live.view.has(key);
  }
  getString(key: string): string | undefined;
  getString(key: string, defaultValue: string): string;
  getString(key: string, defaultValue?: string): string | undefined {
    const view = this.live.view;
    return defaultValue === undefined ? view.getString(key) : view.getString(key, defaultValue);
  }
  getNumber(key: string): number | undefined;
  getNumber(key: string, defaultValue: number): number;
  getNumber(key: string, defaultValue?: number): number | undefined {
    const view = this.live.view;
    return defaultValue === undefined ? view.getNumber(key) : view.getNumber(key, defaultValue);
  }
  getBoolean(key: string): boolean | undefined;
  getBoolean(key: string, defaultValue: boolean): boolean;
  getBoolean(key: string, defaultValue?: boolean): boolean | undefined {
    const view = this.live.view;
    return defaultValue === undefined ? view.getBoolean(key) : view.getBoolean(key, defaultValue);
  }
  getOrThrow(key: string): PropertyValue {
    return this.live.view.getOrThrow(key);
  }
  bind<R extends BoundObject | BoundValue[] = BoundObject>(prefix: string): R;
  bind<T>(prefix: string, schema: ConfigSchema<T>): T;
  bind<T>(prefix: string, schema?: ConfigSchema<T>): T | BoundObject | BoundValue[] {
    return schema ? this.live.view.bind(prefix, schema) : this.live.view.bind(prefix);
  }

  /** A view pinned to the current snapshot: several reads through it never straddle a refresh. */
  view(): ConfigView {
    return this.live.pinnedView();
  }

  /**
   * A component built from configuration and rebuilt after a refresh that changed a key it read.
   * A synchronous factory gives the holder at once; an async one gives a promise of it.
   */
  refreshable<R>(
    factory: (view: ConfigView) => R,
    options?: RefreshableOptions<Awaited<R>>,
  ): RefreshableResult<R>;
  refreshable<T>(
    factory: RefreshableFactory<T>,
    options: RefreshableOptions<T> = {},
  ): Refreshable<T> | Promise<Refreshable<T>> {
    return this.live.refreshable(factory, options);
  }
}
