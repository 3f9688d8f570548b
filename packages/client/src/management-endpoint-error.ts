/** Thrown by a management endpoint to answer with a given HTTP status and a Spring-style error body. */
export class ManagementEndpointError extends Error {
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ManagementEndpointError';
  }
}
