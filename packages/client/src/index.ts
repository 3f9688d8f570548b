export * from './client-settings.js';
export * from './config-client.js';
export * from './config-view.js';
export * from './errors.js';
export type { ConfigSourceKind } from './config-snapshot.js';
export type { Refreshable, RefreshableOptions, RefreshableFactory } from './refreshable.js';
export type { RemoteEnvironment, RemotePropertySource } from './remote-environment.js';
export * from './management-endpoints.js';
export * from './bus/bus-settings.js';
export { busEndpoints } from './bus/bus-endpoints.js';
export {
  ClientBus,
  type BusClientLogger,
  type BusHealth,
  type BusRefreshOutcome,
  type BusRefreshTarget,
  type ClientBusOptions,
} from './bus/client-bus.js';
