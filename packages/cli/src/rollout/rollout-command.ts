/**
 * `confbus rollout …`, loaded on demand: parses the command line, sends one request to the server's rollouts
 * API and prints the answer (docs/rollouts.md, "The CLI"). Exit 0 on a 2xx answer, 1 when the server answered
 * an error (its code and message printed to standard error), 2 on usage errors (thrown, main.ts maps them).
 */
import { ConfbusError, coreErrors } from '@confbus/core';
import { ROLLOUT_USAGE, parseRolloutOptions, type RolloutRequest } from './rollout-options.js';
import { isRolloutView, renderList, renderRollout } from './rollout-render.js';
import { RolloutServer, type ServerAnswer } from './rollout-server.js';

export interface RolloutCommandIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function runRolloutCommand(args: readonly string[], io: RolloutCommandIo): Promise<number> {
  const options = parseRolloutOptions(args);
  if (options.help || options.request === undefined || options.server === undefined) {
    io.out(ROLLOUT_USAGE);
    return 0;
  }
  const server = new RolloutServer(options.server);
  const answer = await send(server, options.request);
  if (answer.status < 200 || answer.status > 299) {
    // A script asking for JSON gets the server's error body too (its `code`), beside the line for people.
    if (options.json) io.out(JSON.stringify(answer.body, null, 2));
    io.err(`confbus rollout: ${errorText(answer)}`);
    return 1;
  }
  if (options.json) {
    io.out(JSON.stringify(answer.body, null, 2));
    return 0;
  }
  if (options.request.kind === 'list') {
    const rollouts = (answer.body as { rollouts?: unknown } | null)?.rollouts;
    if (!Array.isArray(rollouts) || !rollouts.every(isRolloutView)) throw notAnAnswer('a list of rollouts');
    io.out(renderList(rollouts));
    return 0;
  }
  if (!isRolloutView(answer.body)) throw notAnAnswer('a rollout');
  io.out(renderRollout(answer.body));
  return 0;
}

function send(server: RolloutServer, request: RolloutRequest): Promise<ServerAnswer> {
  switch (request.kind) {
    case 'list':
      return server.send('');
    case 'show':
      return server.send(`/${encodeURIComponent(request.id)}`);
    case 'start':
      return server.send('', request.body);
    case 'action':
      return server.send(
        `/${encodeURIComponent(request.id)}/${request.action}`,
        request.reason === undefined ? {} : { reason: request.reason },
      );
  }
}

/** `CODE (status): message`, from the server's error body (Spring's, with confbus's `code`). */
function errorText(answer: ServerAnswer): string {
  const body = (answer.body ?? {}) as { code?: unknown; message?: unknown; error?: unknown };
  const code = typeof body.code === 'string' ? body.code : `HTTP ${answer.status}`;
  const message =
    typeof body.message === 'string' ? body.message : typeof body.error === 'string' ? body.error : '';
  return `${code} (${answer.status})${message === '' ? '' : `: ${message}`}`;
}

function notAnAnswer(what: string): ConfbusError {
  return new ConfbusError(
    coreErrors.CONFBUS_ROLLOUT_SERVER_UNAVAILABLE,
    `The server did not answer ${what}: is --server a confbus server with rollouts on?`,
  );
}
