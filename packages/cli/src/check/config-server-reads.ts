/**
 * What `confbus check --server URL` reads from a config server: JSON over HTTP(S), credentials in the URL
 * (`https://user:password@host`) sent as basic auth and never printed, a deadline per request, and one error for
 * a server that cannot answer (the check still runs and reports it, exit 1).
 */
import { ConfbusError, coreErrors } from '@confbus/core';

const TIMEOUT_MS = 10_000;

export class CheckServerUnavailableError extends ConfbusError {
  override readonly name = 'CheckServerUnavailableError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_CHECK_SERVER_UNAVAILABLE, message);
  }
}

export class ConfigServerReads {
  readonly #base: URL;
  readonly #headers: Record<string, string> = { accept: 'application/json' };

  constructor(server: URL) {
    const base = new URL(server);
    if (base.username !== '' || base.password !== '') {
      const user = decodeURIComponent(base.username);
      const password = decodeURIComponent(base.password);
      this.#headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
      base.username = '';
      base.password = '';
    }
    this.#base = base;
  }

  /** GETs `path` below the server's URL; `what` names the answer expected, `isAnswer` checks its shape. */
  async get<T>(
    path: string,
    query: Record<string, string>,
    what: string,
    isAnswer: (body: unknown) => body is T,
  ): Promise<T> {
    const url = new URL(`${this.#base.pathname.replace(/\/+$/, '')}${path}`, this.#base);
    url.search = new URLSearchParams(query).toString();
    let response: Response;
    try {
      response = await fetch(url, { headers: this.#headers, signal: AbortSignal.timeout(TIMEOUT_MS) });
    } catch (error) {
      throw new CheckServerUnavailableError(`${url.origin}: ${what} cannot be read: ${describe(error)}`);
    }
    if (response.status !== 200)
      throw new CheckServerUnavailableError(`${url.origin}: GET ${url.pathname} answered ${response.status}`);
    const body: unknown = await response.json().catch(() => undefined);
    if (!isAnswer(body))
      throw new CheckServerUnavailableError(`${url.origin}: GET ${url.pathname} did not answer ${what}`);
    return body;
  }
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error instanceof Error ? error.message : String(error));
}
