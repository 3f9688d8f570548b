// The public API of @confbus/server (see README.md). Everything else in src/ is internal: tests import it from src.
export { createLogger, loggerFromSettings, type LogFormat, type LoggerOptions } from './logging.js';
export { serverErrors } from './errors.js';
export {
  createConfigServer,
  type ConfigServer,
  type ConfigServerDependencies,
} from './create-config-server.js';
export type { ConfigRepository, ResolvedRevision } from './environment/config-repository.js';
export {
  ApplicationNotFoundError,
  type EnvironmentRequest,
  type EnvironmentServiceOptions,
} from './environment/environment-service.js';
export type { RenderFormat } from './environment/resolved-environment.js';
export { sampleFiles } from './sample-repo/sample-repository.js';
export { resolveServerSettings, serverSettingSpecs } from './server-settings.js';
export { unsupportedSpringServerSettings } from './settings/unsupported-spring-settings.js';
export { SERVER_NODE_FLAGS, missingServerNodeFlags } from './node-flags.js';
