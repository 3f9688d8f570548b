export * from './bus-node.js';
export * from './bus-settings.js';
