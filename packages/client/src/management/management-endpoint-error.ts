import { ConfbusError } from '@confbus/core';
import { clientErrors } from '../errors.js';

/**
 * Thrown by a management endpoint (one of `extraEndpoints`) to answer with a given HTTP status and a Spring-style
 * error body; the built-in endpoints throw ConfbusErrors with their own codes.
 */
export class ManagementEndpointError extends ConfbusError<'CONFBUS_MANAGEMENT_ENDPOINT'> {
  override readonly name = 'ManagementEndpointError';
  constructor(status: number, message: string, options?: { cause?: unknown }) {
    super({ ...clientErrors.CONFBUS_MANAGEMENT_ENDPOINT, status }, message, options);
  }
}
