/**
 * The configuration the application reads right now: the current snapshot and the refreshable components
 * built from it. A refresh prepares every affected component on the new snapshot, then swaps snapshot and
 * components in one synchronous step, so no reader sees half old, half new.
 */
import type { Logger } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import { BoundSchemas } from './bound-schemas.js';
import type { ConfigSnapshot } from './config-snapshot.js';
import { isAffected, SnapshotView, type ConfigView } from './config-view.js';
import {
  buildOn,
  isPromiseLike,
  RefreshableHolder,
  type PendingBuild,
  type Refreshable,
  type RefreshableFactory,
  type RefreshableOptions,
} from './refreshable.js';

/** A new snapshot with the components already rebuilt on it, ready to be committed. */
export interface PreparedSwap {
  readonly next: ConfigSnapshot;
  readonly builds: ReadonlyArray<readonly [RefreshableHolder<unknown>, PendingBuild<unknown>]>;
}

export class LiveConfig {
  #snapshot: ConfigSnapshot;
  readonly #holders: Array<RefreshableHolder<unknown>> = [];
  /** The schemas bind() was called with through this configuration's views: a refresh must satisfy them. */
  readonly schemas = new BoundSchemas();
  /** Reads through this view always see the current snapshot. */
  readonly view: SnapshotView;

  constructor(
    initial: ConfigSnapshot,
    private readonly logger: Logger,
  ) {
    this.#snapshot = initial;
    this.view = new SnapshotView(() => this.#snapshot, undefined, this.schemas);
  }

  get snapshot(): ConfigSnapshot {
    return this.#snapshot;
  }

  /** A view pinned to the current snapshot: several reads through it never straddle a refresh. */
  pinnedView(): ConfigView {
    const pinned = this.#snapshot;
    return new SnapshotView(() => pinned, undefined, this.schemas);
  }

  /** A component built now and rebuilt by a refresh that changed a key it read. */
  refreshable<T>(
    factory: RefreshableFactory<T>,
    options: RefreshableOptions<T>,
  ): Refreshable<T> | Promise<Refreshable<T>> {
    const register = (first: PendingBuild<T>) => {
      const holder = new RefreshableHolder(factory, first, options);
      this.#holders.push(holder as RefreshableHolder<unknown>);
      return holder;
    };
    const snapshot = this.#snapshot;
    const first = buildOn(factory, snapshot);
    if (!isPromiseLike(first)) return register(first);
    // An async build may finish after a refresh swapped snapshots: build again on the new one.
    const settle = async (build: PendingBuild<T>, builtOn: ConfigSnapshot): Promise<Refreshable<T>> => {
      const current = this.#snapshot;
      return builtOn === current ? register(build) : settle(await buildOn(factory, current), current);
    };
    return first.then((build) => settle(build, snapshot));
  }

  /**
   * Builds every component that read one of `keys` on `next`, nothing visible yet; rejects with the first
   * factory's failure. The list is re-read after each await: a component registered meanwhile was built on
   * the old snapshot.
   */
  async prepare(next: ConfigSnapshot, keys: readonly string[]): Promise<PreparedSwap> {
    const builds: Array<[RefreshableHolder<unknown>, PendingBuild<unknown>]> = [];
    const checked = new Set<RefreshableHolder<unknown>>();
    for (let holder = this.#nextUnchecked(checked); holder; holder = this.#nextUnchecked(checked)) {
      checked.add(holder);
      if (isAffected(holder.tracker, keys)) builds.push([holder, await holder.prepare(next)]);
    }
    return { next, builds };
  }

  /** The swap: one synchronous step. Replaced components are disposed afterwards, failures logged. */
  commit({ next, builds }: PreparedSwap): void {
    this.#snapshot = next;
    const replaced = builds.map(([holder, build]) => [holder, holder.commit(build)] as const);
    for (const [holder, old] of replaced) {
      holder.dispose(old).catch((error: unknown) => {
        this.logger.warn({}, `Disposing a replaced refreshable component failed: ${messageOf(error)}`);
      });
    }
  }

  #nextUnchecked(checked: Set<RefreshableHolder<unknown>>): RefreshableHolder<unknown> | undefined {
    return this.#holders.find((holder) => !checked.has(holder));
  }
}
