export * from './bus-event.js';
export * from './service-matcher.js';
export * from './service-names.js';
