/**
 * What `confbus check --server URL` reads from a config server, through the CLI's ServerClient: JSON answers
 * of an expected shape, and one error for a server that cannot answer (the check still runs and reports it,
 * exit 1).
 */
import { ConfbusError, coreErrors } from '@confbus/core';
import { ServerClient } from '../server-client.js';

const TIMEOUT_MS = 10_000;

export class CheckServerUnavailableError extends ConfbusError {
  override readonly name = 'CheckServerUnavailableError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_CHECK_SERVER_UNAVAILABLE, message);
  }
}

export class ConfigServerReads {
  readonly #client: ServerClient;

  constructor(server: URL) {
    this.#client = new ServerClient(server, TIMEOUT_MS);
  }

  /** GETs `path` below the server's URL; `what` names the answer expected, `isAnswer` checks its shape. */
  async get<T>(
    path: string,
    query: Record<string, string>,
    what: string,
    isAnswer: (body: unknown) => body is T,
  ): Promise<T> {
    const answer = await this.#client.request(path, { query });
    if ('unreachable' in answer)
      throw new CheckServerUnavailableError(`${answer.url.origin}: ${what} cannot be read: ${answer.reason}`);
    const { status, body, url } = answer;
    if (status !== 200)
      throw new CheckServerUnavailableError(`${url.origin}: GET ${url.pathname} answered ${status}`);
    if (!isAnswer(body))
      throw new CheckServerUnavailableError(`${url.origin}: GET ${url.pathname} did not answer ${what}`);
    return body;
  }
}
