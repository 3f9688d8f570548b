/**
 * `ConfbusModule`: the composition root of the Nest integration. `forRoot`/`forRootAsync` provide the started
 * `ConfigClient` (an async provider: Nest resolves it, so the configuration is loaded, before the application
 * finishes booting), the schema-validated configuration, the `ConfigService`, the namespaces, the client's
 * lifecycle and the actuator controller. `forFeature` adds namespaces in another module.
 */
import { ConfigClient, type ConfigSchema } from '@confbus/client';
import { Module, type DynamicModule, type FactoryProvider, type Provider } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { actuatorController } from './actuator-controller.js';
import { ClientLifecycle } from './client-lifecycle.js';
import { ConfbusConfigService } from './config-service.js';
import {
  CLIENT_HANDLE_TOKEN,
  CLIENT_OPTIONS_TOKEN,
  VALIDATED_CONFIG_TOKEN,
  type ClientHandle,
  type ConfbusClientOptions,
  type ConfbusModuleAsyncOptions,
  type ConfbusModuleOptions,
  type ConfbusModuleShape,
} from './module-options.js';
import { NamespaceRegistry, type ConfigNamespace } from './register-as.js';

@Module({})
export class ConfbusModule {
  static forRoot<T>(options: ConfbusModuleOptions<T> = {}): DynamicModule {
    const { client, start, schema } = options;
    return assemble(options, { provide: CLIENT_OPTIONS_TOKEN, useValue: { client, start, schema } });
  }

  static forRootAsync<T>(options: ConfbusModuleAsyncOptions<T>): DynamicModule {
    const optionsProvider: FactoryProvider = {
      provide: CLIENT_OPTIONS_TOKEN,
      useFactory: options.useFactory,
      inject: options.inject ?? [],
    };
    return { ...assemble(options, optionsProvider), imports: options.imports ?? [] };
  }

  /** Namespaces for one module; the client comes from a global `forRoot` (`isGlobal: true`). */
  static forFeature(...namespaces: Array<ConfigNamespace<unknown>>): DynamicModule {
    const providers = namespaces.map(namespaceProvider);
    return { module: ConfbusModule, providers, exports: providers.map((provider) => provider.provide) };
  }
}

function assemble(shape: ConfbusModuleShape, optionsProvider: Provider): DynamicModule {
  const namespaces = (shape.load ?? []).map(namespaceProvider);
  const providers: Provider[] = [
    optionsProvider,
    { provide: CLIENT_HANDLE_TOKEN, useFactory: startClient, inject: [CLIENT_OPTIONS_TOKEN] },
    {
      provide: ConfigClient,
      useFactory: (handle: ClientHandle) => handle.client,
      inject: [CLIENT_HANDLE_TOKEN],
    },
    { provide: NamespaceRegistry, useFactory: () => new NamespaceRegistry() },
    {
      provide: VALIDATED_CONFIG_TOKEN,
      useFactory: validated,
      inject: [CLIENT_HANDLE_TOKEN, CLIENT_OPTIONS_TOKEN],
    },
    {
      provide: ConfbusConfigService,
      useFactory: (handle: ClientHandle, holder: ValidatedHolder, registry: NamespaceRegistry) =>
        new ConfbusConfigService(handle.client, holder, registry),
      inject: [CLIENT_HANDLE_TOKEN, VALIDATED_CONFIG_TOKEN, NamespaceRegistry],
    },
    {
      provide: ClientLifecycle,
      useFactory: (handle: ClientHandle, adapterHost: HttpAdapterHost) =>
        new ClientLifecycle(handle, adapterHost),
      inject: [CLIENT_HANDLE_TOKEN, HttpAdapterHost],
    },
    ...namespaces,
  ];
  const actuator = shape.actuator === false ? undefined : (shape.actuator ?? {});
  return {
    module: ConfbusModule,
    global: shape.isGlobal ?? false,
    providers,
    controllers: actuator ? [actuatorController(actuator)] : [],
    exports: [
      ConfigClient,
      ConfbusConfigService,
      NamespaceRegistry,
      CLIENT_HANDLE_TOKEN,
      ...namespaces.map((p) => p.provide),
    ],
  };
}

type ValidatedHolder = Awaited<ReturnType<typeof validated>>;

async function startClient(options: ConfbusClientOptions): Promise<ClientHandle> {
  if (options.client) return { client: options.client, owned: false };
  return { client: await ConfigClient.start(options.start ?? {}), owned: true };
}

/**
 * The configuration bound from the root and validated, rebuilt (re-validated) by every refresh: a refresh the
 * schema refuses fails, and the client stays on the previous configuration. Without a schema: null.
 */
async function validated(handle: ClientHandle, options: ConfbusClientOptions) {
  const schema: ConfigSchema<unknown> | undefined = options.schema;
  if (!schema) return null;
  return closingOnFailure(handle, () => handle.client.refreshable((view) => view.bind('', schema)));
}

function namespaceProvider(namespace: ConfigNamespace<unknown>): FactoryProvider & { provide: string } {
  return {
    provide: namespace.KEY,
    useFactory: async (handle: ClientHandle, registry: NamespaceRegistry) => {
      const holder = await closingOnFailure(handle, () => handle.client.refreshable(namespace.factory));
      registry.add(namespace.namespace, holder);
      return holder;
    },
    inject: [CLIENT_HANDLE_TOKEN, NamespaceRegistry],
  };
}

/**
 * A build that fails at start fails the application's boot, before any shutdown hook could run: a client the
 * module started is closed here, so its timers and bus connection do not keep the process alive.
 */
async function closingOnFailure<T>(handle: ClientHandle, build: () => T | Promise<T>): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (handle.owned) await handle.client.close();
    throw error;
  }
}
