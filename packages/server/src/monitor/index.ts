export * from './push-webhook.js';
export * from './webhook-error.js';
export * from './webhook-headers.js';
export * from './webhook-signature.js';
