export * from './codecs/flatten.js';
export * from './settings/index.js';
