export * from './common-settings.js';
export * from './relaxed-names.js';
export * from './setting-spec.js';
export * from './settings-resolver.js';
export * from './effective-settings.js';
export * from './settings-file-reader.js';
