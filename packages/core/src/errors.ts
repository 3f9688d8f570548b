/** The error codes raised by @confbus/core. Messages name settings and keys, never key material or values. */
import { defineErrors } from './errors/confbus-error.js';

export const coreErrors = defineErrors({
  CONFBUS_DECRYPT_FAILED: {
    status: 400,
    description:
      'A cipher text could not be decrypted: it was not made with this key, or it was altered or cut short (Spring: INVALID "Text not encrypted with this key")',
  },
  CONFBUS_ENCRYPT_NO_KEY: {
    status: 404,
    description:
      'No encryption key is configured: set encrypt.key, or encrypt.key-store.location with encrypt.key-store.password (Spring: NO_KEY)',
  },
  CONFBUS_ENCRYPT_KEY_NOT_FOUND: {
    status: 400,
    description: 'A {key:alias} prefix or encrypt.key-store.alias names no entry of the key store',
  },
  CONFBUS_ENCRYPT_BAD_KEY: {
    status: 400,
    description:
      'The encryption key settings are unusable: encrypt.key holds a public key or a broken PEM, encrypt.salt is not hex, the key store cannot be opened, or a key in it cannot be recovered',
  },
  CONFBUS_DECRYPT_NOT_SUPPORTED: {
    status: 400,
    description:
      'The key can encrypt but not decrypt (a key store certificate without its private key; Spring: "Server-side decryption is not supported")',
  },
  CONFBUS_NO_PUBLIC_KEY: {
    status: 404,
    description:
      'GET /key: the configured key is symmetric, so there is no public key (Spring: "No public key available")',
  },
  CONFBUS_CONFIG_LIMIT: {
    status: 500,
    description:
      'A configuration file exceeds a safety limit (size, placeholder expansion, nesting); the message names the file, the key and the limit.',
  },
});
