/** What `ConfbusModule.forRoot` / `forRootAsync` take, and the module's internal injection tokens. */
import type {
  ConfigClient,
  ConfigClientOptions,
  ConfigSchema,
  ManagementHandlerOptions,
} from '@confbus/client';
import type { InjectionToken, ModuleMetadata, OptionalFactoryDependency } from '@nestjs/common';
import type { ConfigNamespace } from './register-as.js';

/** What may be given at run time (`forRootAsync`'s factory returns it). */
export interface ConfbusClientOptions<T = unknown> {
  /** A started client to use (the application closes it); otherwise the module starts one with `start`. */
  readonly client?: ConfigClient;
  /**
   * `ConfigClient.start` options; default: the process's arguments and environment
   * (`--spring.cloud.config.uri=…`, `SPRING_PROFILES_ACTIVE`, `application.yml`). The module closes this client.
   */
  readonly start?: ConfigClientOptions;
  /**
   * A schema (zod, any Standard Schema, or `{ parse }`) the whole configuration, as a nested object, must satisfy:
   * at start (the application does not boot otherwise) and at every refresh (a refresh it refuses is not applied).
   * `get()` then reads its output first (coerced values, defaults).
   */
  readonly schema?: ConfigSchema<T>;
}

/** What shapes the module itself, so it is given up front even with `forRootAsync`. */
export interface ConfbusModuleShape {
  /** Register the module globally (its providers injectable everywhere without importing it). */
  readonly isGlobal?: boolean;
  /** Namespaces made with `registerAs`, injectable by their `KEY` and readable through `get('<namespace>.…')`. */
  readonly load?: ReadonlyArray<ConfigNamespace<unknown>>;
  /**
   * The client's actuator endpoints (`refresh`, `health`, `env`, … as `management.endpoints.web.exposure.include`
   * exposes them) as a controller at `path` (default `actuator`, under the global prefix); `false`: none.
   */
  readonly actuator?: false | ActuatorOptions;
}

/** Where the actuator controller goes and what it answers (the client's `createManagementHandler` options). */
export interface ActuatorOptions {
  /** Default `actuator`, under the application's global prefix. */
  readonly path?: string;
  /** Endpoint ids that answer (`*` = all); default `management.endpoints.web.exposure.include`. */
  readonly exposure?: ManagementHandlerOptions['exposure'];
  /** More endpoints by id (subject to exposure); they may replace a built-in one. */
  readonly extraEndpoints?: ManagementHandlerOptions['extraEndpoints'];
}

export interface ConfbusModuleOptions<T = unknown> extends ConfbusClientOptions<T>, ConfbusModuleShape {}

export interface ConfbusModuleAsyncOptions<T = unknown> extends ConfbusModuleShape {
  readonly imports?: ModuleMetadata['imports'];
  readonly useFactory: (...args: never[]) => ConfbusClientOptions<T> | Promise<ConfbusClientOptions<T>>;
  readonly inject?: Array<InjectionToken | OptionalFactoryDependency>;
}

/** The resolved `ConfbusClientOptions`. */
export const CLIENT_OPTIONS_TOKEN = Symbol('confbus:client-options');
/** The client and whether the module started it (and so closes it). */
export const CLIENT_HANDLE_TOKEN = Symbol('confbus:client-handle');
/** The holder of the schema-validated configuration, or null without a schema. */
export const VALIDATED_CONFIG_TOKEN = Symbol('confbus:validated-config');

export interface ClientHandle {
  readonly client: ConfigClient;
  readonly owned: boolean;
}
