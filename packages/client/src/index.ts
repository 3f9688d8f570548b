// The public API of @confbus/client (see README.md). Everything else in src/ is internal: tests import it from src.
export type { ConfigSourceKind } from './snapshot/config-snapshot.js';
export type { Refreshable, RefreshableFactory, RefreshableOptions } from './snapshot/refreshable.js';
export { ClientBus } from './bus-member/client-bus.js';
export type {
  BusHealth,
  BusRefreshOutcome,
  BusRefreshTarget,
  BusWaitingHealth,
  ClientBusOptions,
} from './bus-member/client-bus-types.js';
export type { ApplicationConfig } from './application-config.js';
export type { ClientLogger, LogFunction } from './client-logger.js';
export { clientSettingSpecs } from './client-setting-specs.js';
export type { ClientSettings, RetryPolicy } from './client-settings.js';
export {
  ConfigClient,
  type BusState,
  type ConfigClientEvents,
  type ConfigClientOptions,
  type ConfigStatus,
  type RefreshEvent,
  type RefreshableResult,
  type VersionCatchUp,
} from './config-client.js';
export type { LocalSettingsSources } from './local-settings.js';
export type { BoundObject, BoundValue, ConfigSchema, ConfigView } from './snapshot/config-view.js';
export { ConfigClientError, clientErrors, type ConfigClientErrorCode } from './errors.js';
export {
  createManagementHandler,
  expressMiddleware,
  fastifyPlugin,
  type ExpressLikeMiddleware,
  type FastifyLikeInstance,
  type ManagementEndpoint,
  type ManagementHandler,
  type ManagementHandlerOptions,
  type ManagementMethod,
  type ManagementRequest,
  type ManagementResponse,
} from './management/management-endpoints.js';
export { ManagementEndpointError } from './management/management-endpoint-error.js';
export type { BusCommandSwitches, ClientBusSettings } from './bus-member/bus-member-settings.js';
export type { HealthComponent, HealthIndicator, HealthStatus } from './rollout-report/application-health.js';
