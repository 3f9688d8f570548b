/**
 * Spring Boot's error body (`timestamp`, `status`, `error`, `message`, `path`), the one builder used by the
 * server's HTTP layer and the client's management endpoints. The server adds a stable `code` for programs; the
 * client's actuator answers without it, exactly as Spring's do.
 */

export interface SpringErrorBody {
  readonly timestamp: string;
  readonly status: number;
  /** The status's reason phrase, as Spring writes it (`Not Found`). */
  readonly error: string;
  readonly message: string;
  readonly path: string;
  readonly code?: string;
}

/**
 * `code` is the server's stable error code (undefined: no `code` field, as the client's actuator answers); only
 * the path of `path` is written, never the query (a query string may carry tokens).
 */
export function springErrorBody(
  status: number,
  code: string | undefined,
  message: string,
  path: string,
  now: Date = new Date(),
): SpringErrorBody {
  return {
    timestamp: now.toISOString(),
    status,
    error: reasonPhrase(status),
    message,
    path: path.split('?')[0] ?? path,
    ...(code === undefined ? {} : { code }),
  };
}

/**
 * The reason phrases of node:http's STATUS_CODES for the error statuses (core does no I/O, so it may not import
 * node:http; a test checks this table against it).
 */
const REASON_PHRASES: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Entity',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  506: 'Variant Also Negotiates',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  509: 'Bandwidth Limit Exceeded',
  510: 'Not Extended',
  511: 'Network Authentication Required',
};

export function reasonPhrase(status: number): string {
  return REASON_PHRASES[status] ?? 'Error';
}
