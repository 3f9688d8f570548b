export * from './encryption-controller.js';
export * from './encryption-settings.js';
export * from './environment-decryptor.js';
export * from './load-encryption.js';
