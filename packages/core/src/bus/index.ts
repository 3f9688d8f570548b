export * from './bus-event.js';
export * from './bus-event-decoder.js';
export * from './service-matcher.js';
export * from './service-names.js';
export { MAX_DESTINATION_PATTERN_LENGTH, MAX_DESTINATION_SEGMENTS } from './ant-path-matcher.js';
export * from './presence-event.js';
export * from './bus-settings.js';
