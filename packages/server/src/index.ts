export * from './create-config-server.js';
export * from './environment/config-repository.js';
export * from './environment/environment-service.js';
export { createLogger, loggerFromSettings, type LogFormat, type LoggerOptions } from './logging.js';
export { serverErrors } from './errors.js';
export * from './sample-repo/sample-repository.js';
export * from './settings/server-settings.js';
