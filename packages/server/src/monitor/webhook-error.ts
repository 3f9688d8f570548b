/** A webhook request the monitor cannot use; the route answers it with `statusCode`. */
export class WebhookError extends Error {
  readonly code = 'CONFBUS_BAD_WEBHOOK';
  readonly statusCode = 400;
  constructor(message: string) {
    super(message);
    this.name = 'WebhookError';
  }
}
