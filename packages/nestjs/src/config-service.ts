/**
 * The service applications inject to read configuration: the API of `@nestjs/config`'s `ConfigService` (`get`,
 * `getOrThrow`, `{ infer: true }`, `changes$`) over the confbus client, so every read sees the newest refresh.
 * A path is looked up in a registered namespace, then in the schema-validated configuration, then in the client's
 * keys (a key with keys under it reads as a nested object).
 */
import {
  ConfigClientError,
  type ConfigClient,
  type ConfigView,
  type Refreshable,
  type RefreshEvent,
} from '@confbus/client';
import type { OnModuleDestroy } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import { splitNamespace, valueAtPath, type Path, type PathValue } from './config-paths.js';
import type { NamespaceRegistry } from './register-as.js';

/** One key a refresh changed, as `@nestjs/config` reports a change (`newValue` undefined: the key was removed). */
export interface ConfigChangeEvent<OldValue = unknown, NewValue = unknown> {
  readonly path: string;
  readonly oldValue: OldValue;
  readonly newValue: NewValue;
}

/**
 * `@nestjs/config`'s signatures return `any` when no type is given: code moved over assigns the result to typed
 * variables, which `unknown` would refuse. `get<T>(…)` and `{ infer: true }` give typed reads.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Untyped = any;

type InferOption = { readonly infer: true };
/** With a validated schema (`WasValidated`) a read is never undefined, as `@nestjs/config` types it. */
type Inferred<K, P extends string, WasValidated extends boolean> = WasValidated extends true
  ? PathValue<K, P>
  : PathValue<K, P> | undefined;

export class ConfbusConfigService<
  K = Record<string, unknown>,
  WasValidated extends boolean = false,
> implements OnModuleDestroy {
  readonly #changes = new Subject<ConfigChangeEvent>();
  readonly #refreshes = new Subject<RefreshEvent>();
  /** The configuration as the last refresh left it, to tell each change's old value. */
  #before: ConfigView;

  /** Each key a refresh changed, with its old and new value (after the refresh is in place). */
  readonly changes$: Observable<ConfigChangeEvent> = this.#changes.asObservable();
  /** Each successful refresh: the keys it changed (none when nothing changed) and the version it brought. */
  readonly refreshes$: Observable<RefreshEvent> = this.#refreshes.asObservable();

  constructor(
    /** The client itself, for what this service does not wrap (`refreshable`, `view`, `status`, the bus). */
    readonly client: ConfigClient,
    private readonly validated: Refreshable<unknown> | null,
    private readonly namespaces: NamespaceRegistry,
  ) {
    this.#before = client.view();
    client.on('refresh', this.#onRefresh);
  }

  // Typed overloads first: a typed call must never fall into an untyped one (which would give `any`).
  get<P extends Path<K>>(path: P, options: InferOption): Inferred<K, P, WasValidated>;
  get<P extends Path<K>>(
    path: P,
    defaultValue: NoInfer<NonNullable<PathValue<K, P>>>,
    options: InferOption,
  ): NonNullable<PathValue<K, P>>;
  get<T = Untyped>(path: string): WasValidated extends true ? T : T | undefined;
  /** The default's type is the result's: `{ infer: true }` on a path not in `K` gives that object type, not `any`. */
  get<T = Untyped>(path: string, defaultValue: T): T;
  get(path: string, defaultOrOptions?: unknown, options?: InferOption): unknown {
    const defaultValue =
      options === undefined && isInferOption(defaultOrOptions) ? undefined : defaultOrOptions;
    return this.#lookup(path) ?? defaultValue;
  }

  /** Like `get`, but a path that is not set throws `CONFBUS_MISSING_KEY` naming it. */
  getOrThrow<P extends Path<K>>(path: P, options: InferOption): NonNullable<PathValue<K, P>>;
  getOrThrow<T = Untyped>(path: string): Exclude<T, undefined>;
  getOrThrow(path: string): unknown {
    const value = this.#lookup(path);
    if (value === undefined) {
      throw new ConfigClientError(
        'CONFBUS_MISSING_KEY',
        `Configuration key '${path}' is not set (looked in the namespaces, the validated configuration and the config client)`,
      );
    }
    return value;
  }

  /** Re-fetches the configuration now (as `POST /actuator/refresh` does); resolves with the changed keys. */
  refresh(): Promise<string[]> {
    return this.client.refresh();
  }

  onModuleDestroy(): void {
    this.client.off('refresh', this.#onRefresh);
    this.#changes.complete();
    this.#refreshes.complete();
  }

  #lookup(path: string): unknown {
    const { namespace, rest } = splitNamespace(path);
    const holder = this.namespaces.get(namespace);
    if (holder) {
      const value = rest === '' ? holder.current : valueAtPath(holder.current, rest);
      if (value !== undefined) return value;
    }
    if (this.validated) {
      const value = valueAtPath(this.validated.current, path);
      if (value !== undefined) return value;
    }
    const value = this.client.get(path);
    if (value !== undefined) return value;
    const bound = this.client.bind(path);
    const names = Object.keys(bound);
    if (names.length === 0) return undefined;
    // `list[0]`, `list[1]`: bind() gives a path that is itself a list as an object by index (integer keys iterate
    // in ascending order).
    return names.every((name) => /^\d+$/.test(name)) ? Object.values(bound) : bound;
  }

  readonly #onRefresh = (event: RefreshEvent): void => {
    const before = this.#before;
    this.#before = this.client.view();
    for (const path of event.keys) {
      this.#changes.next({
        path,
        oldValue: readQuietly(before, path),
        newValue: readQuietly(this.#before, path),
      });
    }
    this.#refreshes.next(event);
  };
}

function isInferOption(value: unknown): value is InferOption {
  return typeof value === 'object' && value !== null && (value as { infer?: unknown }).infer === true;
}

/** A change event is no place to throw: a value that cannot be resolved (a broken placeholder) reads as undefined. */
function readQuietly(view: ConfigView, path: string): unknown {
  try {
    return view.get(path);
  } catch {
    return undefined;
  }
}
