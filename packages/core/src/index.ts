export * from './codecs/flatten.js';
export * from './settings/index.js';
export * from './bus/index.js';
