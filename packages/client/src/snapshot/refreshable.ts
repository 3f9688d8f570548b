/**
 * A component rebuilt when the configuration it read changes (Spring's @RefreshScope). The holder
 * remembers which keys its factory read; a refresh that touches none of them leaves it alone.
 */
import type { ConfigSnapshot } from './config-snapshot.js';
import { newTracker, SnapshotView, type ConfigView, type ReadTracker } from './config-view.js';

export interface Refreshable<T> {
  /** The instance built from the newest configuration that concerns it. */
  readonly current: T;
  /** 1 for the first build, +1 on every rebuild. */
  readonly generation: number;
}

export interface RefreshableOptions<T> {
  /** Called with the replaced instance after a rebuild has been swapped in (close pools etc.). */
  dispose?: (previous: T) => void | Promise<void>;
}

export type RefreshableFactory<T> = (view: ConfigView) => T | Promise<T>;

export interface PendingBuild<T> {
  readonly value: T;
  readonly tracker: ReadTracker;
}

export class RefreshableHolder<T> implements Refreshable<T> {
  #value: T;
  #tracker: ReadTracker;
  #generation = 1;

  constructor(
    private readonly factory: RefreshableFactory<T>,
    first: PendingBuild<T>,
    private readonly options: RefreshableOptions<T>,
  ) {
    this.#value = first.value;
    this.#tracker = first.tracker;
  }

  get current(): T {
    return this.#value;
  }

  get generation(): number {
    return this.#generation;
  }

  get tracker(): ReadTracker {
    return this.#tracker;
  }

  /** Runs the factory against `snapshot` without touching the live instance. */
  async prepare(snapshot: ConfigSnapshot): Promise<PendingBuild<T>> {
    return buildOn(this.factory, snapshot);
  }

  /** Part of the refresh's single synchronous swap; returns the instance it replaced. */
  commit(build: PendingBuild<T>): T {
    const previous = this.#value;
    this.#value = build.value;
    this.#tracker = build.tracker;
    this.#generation++;
    return previous;
  }

  async dispose(previous: T): Promise<void> {
    await this.options.dispose?.(previous);
  }
}

/** Builds on a fixed snapshot: the view never moves to a newer one, even if the factory awaits. */
export function buildOn<T>(
  factory: RefreshableFactory<T>,
  snapshot: ConfigSnapshot,
): PendingBuild<T> | Promise<PendingBuild<T>> {
  const tracker = newTracker();
  const result = factory(new SnapshotView(() => snapshot, tracker));
  if (isPromiseLike(result)) return Promise.resolve(result).then((value) => ({ value, tracker }));
  return { value: result, tracker };
}

export function isPromiseLike<T>(value: unknown): value is PromiseLike<T> {
  return (
    typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'
  );
}
