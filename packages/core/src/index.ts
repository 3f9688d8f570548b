export * from './codecs/flatten.js';
export * from './codecs/profile-expression.js';
export * from './codecs/config-document.js';
export * from './codecs/yaml-codec.js';
export * from './codecs/properties-codec.js';
export { isConfigFileName, parseConfigFile } from './codecs/config-file.js';
export * from './settings/index.js';
