/**
 * The server's error codes that any endpoint may answer, whatever its feature: routing, malformed or oversized
 * requests, authentication and authorisation, and the catch-all 500. Declared apart from errors.ts (which spreads
 * them in place, so `serverErrors` and docs/errors.md keep their order) to keep that table within 300 lines.
 */
export const httpErrorEntries = {
  CONFBUS_NOT_FOUND: {
    status: 404,
    description:
      'No endpoint answers this method and path (or a file name that is not {application}-{profiles}.ext)',
  },
  CONFBUS_BAD_REQUEST: {
    status: 400,
    description:
      'A request the HTTP layer rejects before any endpoint runs (it could not be routed); the status is the one the HTTP framework gives',
  },
  CONFBUS_BAD_URL: { status: 400, description: 'The path holds malformed percent-encoding' },
  CONFBUS_MALFORMED_REQUEST: {
    status: 400,
    description: 'The request is not valid HTTP/1.1; the connection is closed',
  },
  CONFBUS_REQUEST_TIMEOUT: {
    status: 408,
    description: 'The request was not received in time; the connection is closed',
  },
  CONFBUS_URL_TOO_LONG: {
    status: 414,
    description: 'The URL is longer than confbus.server.max-url-length',
  },
  CONFBUS_HEADERS_TOO_LARGE: {
    status: 431,
    description: 'The request line and headers are larger than confbus.server.max-header-bytes',
  },
  CONFBUS_BODY_TOO_LARGE: {
    status: 413,
    description: 'The request body is larger than confbus.server.max-body-bytes',
  },
  CONFBUS_UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    description: 'The Content-Type is not one the endpoint reads; the message names it and the endpoint',
  },
  CONFBUS_UNAUTHORIZED: {
    status: 401,
    description:
      'Credentials are configured (spring.security.user.*, confbus.security.clients.*) and the request has no valid ones (basic auth or a bearer token)',
  },
  CONFBUS_FORBIDDEN: {
    status: 403,
    description:
      'The credentials are valid but lack the role the endpoint needs (viewer, operator or admin: confbus.security.clients.<name>.roles); the message names the role',
  },
  CONFBUS_APPLICATION_FORBIDDEN: {
    status: 403,
    description:
      "The credentials may not read this application, profile or label (confbus.security.clients.<name>.applications, profiles, labels): another application's environment, file, plain-text resource, watch stream or /decrypt",
  },
  CONFBUS_LOGIN_RATE_LIMITED: {
    status: 429,
    description:
      'Too many failed logins from this address (confbus.security.max-login-failures within login-failure-window); retry after the Retry-After seconds',
  },
  CONFBUS_INTERNAL: {
    status: 500,
    description:
      'An unexpected fault of the server; the answer says only this, the server log has the details',
  },
} as const satisfies Record<string, { status: number; description: string }>;
