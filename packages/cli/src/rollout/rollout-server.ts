/**
 * `confbus rollout`'s requests to a config server's rollouts API (`{server}/-/rollouts`): JSON over HTTP(S),
 * credentials in the URL sent as basic auth and never printed, a deadline per request. An answer is returned
 * whatever its status (the command prints the server's error code); only "no JSON answer at all" throws.
 */
import { ConfbusError, coreErrors } from '@confbus/core';

const TIMEOUT_MS = 15_000;

export interface ServerAnswer {
  readonly status: number;
  readonly body: unknown;
}

export class RolloutServer {
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
    base.search = '';
    base.hash = '';
    this.#base = base;
  }

  /** `path` below `{server}/-/rollouts` ('' for the collection); a body makes it a POST. */
  async send(path: string, body?: unknown): Promise<ServerAnswer> {
    const url = new URL(`${this.#base.pathname.replace(/\/+$/, '')}/-/rollouts${path}`, this.#base);
    const method = body === undefined ? 'GET' : 'POST';
    let response: Response;
    try {
      response = await fetch(url, {
        method,
        headers:
          body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable(`${method} ${url.origin}${url.pathname}: ${describe(error)}`);
    }
    const text = await response.text().catch(() => '');
    try {
      return { status: response.status, body: JSON.parse(text) as unknown };
    } catch {
      throw unavailable(
        `${method} ${url.origin}${url.pathname} answered ${response.status} without JSON: is this a confbus server` +
          ' (and its prefix in the URL)?',
      );
    }
  }
}

function unavailable(message: string): ConfbusError {
  return new ConfbusError(coreErrors.CONFBUS_ROLLOUT_SERVER_UNAVAILABLE, message);
}

function describe(error: unknown): string {
  if ((error as { name?: string }).name === 'TimeoutError') return `no answer within ${TIMEOUT_MS / 1000} s`;
  const cause = (error as { cause?: { code?: string } }).cause?.code;
  return cause ?? (error instanceof Error ? error.message : String(error));
}
