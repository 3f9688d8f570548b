import { ConfbusError, type ErrorDescriptor, coreErrors, defineErrors } from '@confbus/core';

/**
 * Errors the client raises. Each carries a stable `code` (unique across confbus, see docs/errors.md); messages
 * name the key or URI, never a secret value. The status is what a management endpoint answers with when the
 * error reaches it: these are faults of the application's configuration, so 500 unless said otherwise.
 */
export const clientErrors = defineErrors({
  CONFBUS_CONFIG_FETCH: {
    status: 500,
    description:
      'The configuration could not be fetched from any config server (bad URI, unreachable, a non-200 answer, not JSON); the message names the URI and the answer',
  },
  CONFBUS_FAIL_FAST: {
    status: 500,
    description:
      'spring.cloud.config.fail-fast=true and the configuration could not be fetched after the retries: start-up fails',
  },
  CONFBUS_MISSING_KEY: {
    status: 500,
    description: 'A required configuration key is not set; the message lists the layers looked in',
  },
  CONFBUS_BAD_VALUE: {
    status: 500,
    description:
      'A configuration value is not of the type asked for (boolean, number); secret values are masked',
  },
  CONFBUS_BIND: {
    status: 500,
    description: 'bind() found configuration that does not satisfy the schema, or the schema is asynchronous',
  },
  CONFBUS_REFRESH_FAILED: {
    status: 500,
    description: 'A refresh failed; the client keeps the configuration it has and says which version',
  },
  CONFBUS_CLIENT_CLOSED: {
    status: 500,
    description: 'refresh() was called on a closed config client',
  },
  CONFBUS_BUS_UNAVAILABLE: {
    status: 503,
    description:
      'A bus refresh could not be sent to the other nodes: the bus is disabled, not started yet, or the broker is unreachable',
  },
  CONFBUS_BUS_NOT_INSTALLED: {
    status: 500,
    description:
      'spring.cloud.bus.enabled=true but @confbus/bus (an optional peer of @confbus/client) is not installed: `npm install @confbus/bus`',
  },
  CONFBUS_BAD_BACKUP: {
    status: 500,
    description:
      'The file at confbus.client.backup.file is not a confbus client backup (another file, or one cut short): the client does not start from it, and logs why',
  },
  CONFBUS_CLIENT_DECRYPT_FAILED: {
    status: 500,
    description:
      "A {cipher} value could not be decrypted with the client's own encrypt.* key (encrypt.fail-on-error=true): start-up or the refresh fails",
  },
  CONFBUS_MANAGEMENT_BAD_REQUEST: {
    status: 400,
    description:
      'A management endpoint (/actuator/*) got a body that is not JSON, larger than 64 KiB, or without what it needs (busenv: name and value)',
  },
  CONFBUS_MANAGEMENT_ENDPOINT: {
    status: 500,
    description:
      'Raised by an endpoint plugged in through extraEndpoints (ManagementEndpointError), with the status it chose',
  },
});

/** The codes a ConfigClientError carries: the client's own, and core's for a bad setting. */
const CONFIG_CLIENT_ERRORS = {
  CONFBUS_CONFIG_FETCH: clientErrors.CONFBUS_CONFIG_FETCH,
  CONFBUS_FAIL_FAST: clientErrors.CONFBUS_FAIL_FAST,
  CONFBUS_MISSING_KEY: clientErrors.CONFBUS_MISSING_KEY,
  CONFBUS_BAD_VALUE: clientErrors.CONFBUS_BAD_VALUE,
  CONFBUS_BIND: clientErrors.CONFBUS_BIND,
  CONFBUS_REFRESH_FAILED: clientErrors.CONFBUS_REFRESH_FAILED,
  CONFBUS_CLIENT_CLOSED: clientErrors.CONFBUS_CLIENT_CLOSED,
  CONFBUS_BAD_SETTING: coreErrors.CONFBUS_BAD_SETTING,
  CONFBUS_BUS_UNAVAILABLE: clientErrors.CONFBUS_BUS_UNAVAILABLE,
  CONFBUS_BUS_NOT_INSTALLED: clientErrors.CONFBUS_BUS_NOT_INSTALLED,
} as const satisfies Record<string, ErrorDescriptor>;

export type ConfigClientErrorCode = keyof typeof CONFIG_CLIENT_ERRORS;

/** The client's errors, by code (kept as a class: applications test `instanceof ConfigClientError`). */
export class ConfigClientError extends ConfbusError<ConfigClientErrorCode> {
  override readonly name = 'ConfigClientError';
  constructor(code: ConfigClientErrorCode, message: string, options?: { cause?: unknown }) {
    super(CONFIG_CLIENT_ERRORS[code], message, options);
  }
}
