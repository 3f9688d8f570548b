export * from './bus-node.js';
