/**
 * A CLI command's requests to a config server (`confbus check --server`, `confbus rollout`): JSON over HTTP(S)
 * below the server's URL (its prefix kept), credentials in the URL (`https://user:password@host`) sent as basic
 * auth and never printed, a deadline per request. The answer comes back whatever its status; the caller decides
 * what a status means and which error a server that cannot be reached is.
 */

export interface ServerAnswer {
  readonly status: number;
  /** The parsed JSON; undefined when the answer was not JSON. */
  readonly body: unknown;
  /** The URL asked, without credentials. */
  readonly url: URL;
}

/** The request never got an answer: `reason` says why (ECONNREFUSED, the deadline, ...). */
export class ServerUnreachable extends Error {
  override readonly name = 'ServerUnreachable';
  constructor(
    readonly url: URL,
    readonly reason: string,
  ) {
    super(`${url.origin}${url.pathname}: ${reason}`);
  }
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

  /** `path` below the server's URL; a body makes it a POST of JSON. Throws ServerUnreachable without an answer. */
  async request(
    path: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<ServerAnswer> {
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
      throw new ServerUnreachable(url, this.#describe(error));
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
