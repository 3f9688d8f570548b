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
      'A configuration file exceeds a safety limit (size, documents, placeholder expansion, nesting, rendering time); the message names the file, the key and the limit.',
  },
  CONFBUS_CHECK_SERVER_UNAVAILABLE: {
    status: 503,
    description:
      "`confbus check --server URL`: the server's published contracts or fleet view could not be read (unreachable, refused or not the answer expected); the check still runs without them and exits 1",
  },
  CONFBUS_ROLLOUT_SERVER_UNAVAILABLE: {
    status: 503,
    description:
      "`confbus rollout …`: the config server could not be reached in time or did not answer JSON (an error the server answered is printed with the server's own code instead); exit 1",
  },
  CONFBUS_TEMPLATE: {
    status: 500,
    description:
      'A `confbus render` template could not be read, parsed or rendered (it names a key the configuration lacks); the message names the file, line and column, and the old output file is kept',
  },
  CONFBUS_CONFIG_PARSE: {
    status: 500,
    description:
      'A configuration file does not parse (bad YAML or properties, a malformed profile expression); the message names the file, document, line and column. Spring answers 500 too.',
  },
  CONFBUS_PROFILE_EXPRESSION: {
    status: 400,
    description:
      "A profile expression is empty or malformed (mixing '&' and '|' without parentheses, as Spring rejects); inside a file it is reported as CONFBUS_CONFIG_PARSE",
  },
  CONFBUS_USAGE: {
    status: 400,
    description:
      'The confbus command line cannot be run as written (unknown command or option, a stray argument, a missing value); the usage follows',
  },
  CONFBUS_PACKAGE_NOT_INSTALLED: {
    status: 500,
    description:
      'A confbus command needs an optional package that is not installed (`confbus sample-client` needs @confbus/sample-client); the message says what to install',
  },
  CONFBUS_BAD_SETTING: {
    status: 400,
    description:
      'A setting has a bad value, an unknown key or a missing companion; the message names the key and where it came from (argument, environment, file), never a secret value',
  },
  CONFBUS_TLS_MATERIAL: {
    status: 500,
    description:
      'A TLS key store, trust store, PEM certificate or private key a setting names cannot be read or opened (missing file, wrong password, unsupported type, several keys without an alias); the message names the setting',
  },
  CONFBUS_BAD_BUS_MESSAGE: {
    status: 400,
    description:
      'A message on the bus is not a Spring Cloud Bus event (not JSON, a missing or oversized field); the node drops it and logs why',
  },
  CONFBUS_PLACEHOLDER_CYCLE: {
    status: 500,
    internal: true,
    description:
      'Internal to the placeholder resolver: a placeholder refers back to itself; never reaches a user: in served configuration the outermost placeholder stays literal, in settings it is reported as CONFBUS_BAD_SETTING',
  },
});
