/**
 * `confbus rollout`'s requests to a config server's rollouts API (`{server}/-/rollouts`), through the CLI's
 * ServerClient. An answer is returned whatever its status (the command prints the server's error code); only
 * "no JSON answer at all" throws CONFBUS_ROLLOUT_SERVER_UNAVAILABLE.
 */
import { ConfbusError, coreErrors } from '@confbus/core';
import { ServerClient } from '../server-client.js';

const TIMEOUT_MS = 15_000;

export interface ServerAnswer {
  readonly status: number;
  readonly body: unknown;
}

export class RolloutServer {
  readonly #client: ServerClient;

  constructor(server: URL) {
    this.#client = new ServerClient(server, TIMEOUT_MS);
  }

  /** `path` below `{server}/-/rollouts` ('' for the collection); a body makes it a POST. */
  async send(path: string, body?: unknown): Promise<ServerAnswer> {
    const method = body === undefined ? 'GET' : 'POST';
    const answer = await this.#client.request(`/-/rollouts${path}`, { body });
    const where = `${method} ${answer.url.origin}${answer.url.pathname}`;
    if ('unreachable' in answer) throw unavailable(`${where}: ${answer.reason}`);
    if (answer.body === undefined)
      throw unavailable(
        `${where} answered ${answer.status} without JSON: is this a confbus server (and its prefix in the URL)?`,
      );
    return { status: answer.status, body: answer.body };
  }
}

function unavailable(message: string): ConfbusError {
  return new ConfbusError(coreErrors.CONFBUS_ROLLOUT_SERVER_UNAVAILABLE, message);
}
