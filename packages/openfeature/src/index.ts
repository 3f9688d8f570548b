// The public API of @confbus/openfeature (see README.md).
export { ConfbusProvider, DEFAULT_FLAG_PREFIX, type ConfbusProviderOptions } from './confbus-provider.js';
export type { FlagSource } from './flag-source.js';
