/**
 * Typed configuration namespaces, as `registerAs` of `@nestjs/config` makes them, but built from the confbus
 * configuration and live: each is a refreshable component of the client, rebuilt after a refresh that changed a key
 * its factory read. A factory that throws (a schema refusing the new values) makes the client refuse the refresh.
 */
import type { ConfigView, Refreshable } from '@confbus/client';

export interface ConfigNamespace<T> {
  /** The injection token of the namespace's holder: `@Inject(dbConfig.KEY) db: ConfigHolder<typeof dbConfig>`. */
  readonly KEY: string;
  readonly namespace: string;
  readonly factory: (config: ConfigView) => T | Promise<T>;
  /**
   * For another module's `forRootAsync` (`TypeOrmModule.forRootAsync(dbConfig.asProvider())`): the namespace's
   * value when that module is built (later refreshes do not rebuild other modules).
   */
  asProvider(): { useFactory(holder: Refreshable<T>): T; inject: [string] };
}

/** The value type of a namespace (what its factory returns), as `ConfigType` of `@nestjs/config`. */
export type ConfigType<N> = N extends ConfigNamespace<infer T> ? T : never;

/** What `@Inject(namespace.KEY)` gives: the holder whose `.current` is the namespace's newest value. */
export type ConfigHolder<N> = Refreshable<ConfigType<N>>;

/**
 * A namespace `name` built by `factory` from the configuration, e.g.
 * `registerAs('db', (config) => config.bind('db', DbSchema))`. Register it with `ConfbusModule.forRoot({ load })`
 * or `ConfbusModule.forFeature(...)`; `configService.get('db.host')` reads it too.
 */
export function registerAs<T>(
  name: string,
  factory: (config: ConfigView) => T | Promise<T>,
): ConfigNamespace<T> {
  const KEY = `confbus:configuration(${name})`;
  return {
    KEY,
    namespace: name,
    factory,
    asProvider: () => ({ useFactory: (holder: Refreshable<T>) => holder.current, inject: [KEY] }),
  };
}

/** The namespaces registered in the application, by name, for `ConfigService.get('<namespace>.…')`. */
export class NamespaceRegistry {
  readonly #holders = new Map<string, Refreshable<unknown>>();

  add(name: string, holder: Refreshable<unknown>): void {
    this.#holders.set(name, holder);
  }

  get(name: string): Refreshable<unknown> | undefined {
    return this.#holders.get(name);
  }
}
