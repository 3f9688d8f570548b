import { defineErrors } from '@confbus/core';

/** Errors the client raises. Each carries a stable `code`; messages name the key or URI, never a secret value. */
export type ConfigClientErrorCode =
  | 'CONFBUS_CONFIG_FETCH'
  | 'CONFBUS_FAIL_FAST'
  | 'CONFBUS_MISSING_KEY'
  | 'CONFBUS_BAD_VALUE'
  | 'CONFBUS_BIND'
  | 'CONFBUS_REFRESH_FAILED'
  | 'CONFBUS_CLIENT_CLOSED'
  | 'CONFBUS_BAD_SETTING'
  | 'CONFBUS_BUS_UNAVAILABLE';

export class ConfigClientError extends Error {
  constructor(
    readonly code: ConfigClientErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ConfigClientError';
  }
}

/** Error codes declared for new code (ConfbusError); the older ConfigClientError codes above migrate later. */
export const clientErrors = defineErrors({
  CONFBUS_CLIENT_DECRYPT_FAILED: {
    status: 500,
    description:
      "A {cipher} value could not be decrypted with the client's own encrypt.* key (encrypt.fail-on-error=true): start-up or the refresh fails",
  },
});
