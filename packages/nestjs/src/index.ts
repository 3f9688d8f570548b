// The public API of @confbus/nestjs (see README.md).
export { ConfbusModule } from './confbus-module.js';
export {
  ConfbusConfigService,
  ConfbusConfigService as ConfigService,
  type ConfigChangeEvent,
} from './config-service.js';
export type { Path, PathValue } from './config-paths.js';
export type {
  ActuatorOptions,
  ConfbusClientOptions,
  ConfbusModuleAsyncOptions,
  ConfbusModuleOptions,
  ConfbusModuleShape,
} from './module-options.js';
export { registerAs, type ConfigHolder, type ConfigNamespace, type ConfigType } from './register-as.js';
