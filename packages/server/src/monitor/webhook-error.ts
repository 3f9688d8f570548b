import { ConfbusError } from '@confbus/core';
import { serverErrors } from '../errors.js';

/** A webhook request the monitor cannot use; the error handler answers it with its status (400). */
export class WebhookError extends ConfbusError<'CONFBUS_BAD_WEBHOOK'> {
  override readonly name = 'WebhookError';
  constructor(message: string) {
    super(serverErrors.CONFBUS_BAD_WEBHOOK, message);
  }
}
