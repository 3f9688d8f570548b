/**
 * A CLI command's requests to a config server (`confbus check --server`, `confbus rollout`): JSON over HTTP(S)
 * below the server's URL (its prefix kept), credentials in the URL (`https://user:password@host`) sent as basic
 * auth and never printed, a deadline per request. The answer comes back whatever its status, and no answer is a
 * value too (NoAnswer): the caller decides what a status means and which error each command reports.
 */

export interface ServerAnswer {
  readonly status: number;
  /** The parsed JSON; undefined when the answer was not JSON. */
  readonly body: unknown;
  /** The URL asked, without credentials. */
  readonly url: URL;
}

/** The request never got an answer: `reason` says why (ECONNREFUSED, the deadline, ...). */
export interface NoAnswer {
  readonly unreachable: true;
  readonly url: URL;
  readonly reason: string;
}

export class ServerClient {
  readonly #base: URL;
  readonly #headers: Record<string, string> = { accept: 'application/json' };

  constructor(
    server: URL,
    private readonly timeoutMs: number,
  ) {
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

  /** `path` below the server's URL; a body makes it a POST of JSON. */
  async request(
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<ServerAnswer | NoAnswer> {
    const url = new URL(`${this.#base.pathname.replace(/\/+$/, '')}${path}`, this.#base);
    if (options.query) url.search = new URLSearchParams(options.query).toString();
    const { body } = options;
    let response: Response;
    try {
      response = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers:
          body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      return { unreachable: true, url, reason: this.#describe(error) };
    }
    const text = await response.text().catch(() => '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, body: parsed, url };
  }

  #describe(error: unknown): string {
    if ((error as { name?: string }).name === 'TimeoutError')
      return `no answer within ${this.timeoutMs / 1000} s`;
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return cause ?? (error instanceof Error ? error.message : String(error));
  }
}
