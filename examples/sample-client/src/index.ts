export * from './sample-client.js';
