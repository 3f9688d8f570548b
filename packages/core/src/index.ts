export * from './codecs/flatten.js';
export * from './codecs/profile-expression.js';
export * from './codecs/config-document.js';
export * from './codecs/yaml-codec.js';
export * from './codecs/properties-codec.js';
export { isConfigFileName, parseConfigFile } from './codecs/config-file.js';
export * from './environment/environment.js';
export * from './environment/request-names.js';
export * from './environment/config-file-order.js';
export * from './environment/render-formats.js';
export {
  buildPropertyTree,
  type TreeList,
  type TreeMap,
  type TreeNode,
} from './environment/property-tree.js';
export * from './secrets.js';
export * from './settings/index.js';
export * from './bus/index.js';
export * from './errors/confbus-error.js';
export * from './errors/spring-error-body.js';
export * from './environment/placeholder-limits.js';
export * from './logger.js';
export * from './errors.js';
export * from './encryption/index.js';
