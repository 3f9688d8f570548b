/**
 * `confbus rollout …`'s command line: the subcommand, the rollout it names, the plan of a start, the server.
 * Parsed strictly (node:util parseArgs): an unknown option, a stray word or a missing value is a usage error
 * (exit 2) before anything is sent. The plan's fields themselves (commits, waves) are the server's to validate:
 * one set of rules, its error code printed (exit 1).
 */
import { splitList } from '@confbus/core/internal';
import { UsageError } from '../command-line.js';
import { parseStrictArguments } from '../strict-arguments.js';

export const ROLLOUT_ACTIONS = ['pause', 'resume', 'promote', 'abort', 'rollback'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

export type RolloutRequest =
  | { readonly kind: 'list' }
  | { readonly kind: 'show'; readonly id: string }
  | { readonly kind: 'action'; readonly id: string; readonly action: RolloutAction; readonly reason?: string }
  | { readonly kind: 'start'; readonly body: Readonly<Record<string, unknown>> };

export interface RolloutOptions {
  readonly help: boolean;
  readonly json: boolean;
  readonly server?: URL;
  readonly request?: RolloutRequest;
}

export const ROLLOUT_USAGE = `Usage: confbus rollout start --server URL --application A[,B...] --from COMMIT [--to COMMIT]
                             [--label L] [--waves 1,5%,25%,100%] [--bake 300s] [--reason TEXT]
       confbus rollout list --server URL
       confbus rollout show ID --server URL
       confbus rollout pause|resume|promote|abort|rollback ID [--reason TEXT] --server URL
       (each also takes --json: the server's answer as it is)

Staged rollouts on a config server (docs/rollouts.md). start moves the applications from the commit --from
(served outside the waves) to --to (default: the label's head as the server sees it now) wave by wave: a count
('1': that many more instances), a share ('25%'); default: the server's confbus.server.rollouts.default-waves.
--bake is how long each wave runs healthy before the next (300s, 5m, 1h; plain seconds too; default: the
server's). list prints a table; show, start and the actions print the rollout: status, waves, the instances
on each commit with their health, the decision log. --server URL is the config server, its prefix included;
credentials as https://user:password@host (sent as basic auth, never printed; starting and acting need the
operator role, reading the viewer role).
Exit status: 0 done, 1 the server refused or could not be reached (its error code and message are printed),
2 usage error.`;

const isAction = (name: string): name is RolloutAction =>
  (ROLLOUT_ACTIONS as readonly string[]).includes(name);

const COMMANDS = ['start', 'list', 'show', ...ROLLOUT_ACTIONS] as const;

export function parseRolloutOptions(args: readonly string[]): RolloutOptions {
  const { values, positionals } = parseStrictArguments(args, {
    help: { type: 'boolean', short: 'h' },
    json: { type: 'boolean' },
    server: { type: 'string' },
    application: { type: 'string' },
    applications: { type: 'string' },
    from: { type: 'string' },
    to: { type: 'string' },
    label: { type: 'string' },
    waves: { type: 'string' },
    bake: { type: 'string' },
    reason: { type: 'string' },
  });
  const help = values.help === true;
  const json = values.json === true;
  const [command, ...operands] = positionals;
  if (help && command === undefined) return { help, json };
  if (command === undefined) throw new UsageError(`'rollout' needs a subcommand: ${COMMANDS.join(', ')}`);
  if (!(COMMANDS as readonly string[]).includes(command))
    throw new UsageError(`unknown subcommand 'rollout ${command}'`);
  if (help) return { help, json };
  const startOnly = ['application', 'applications', 'from', 'to', 'label', 'waves', 'bake'] as const;
  if (command !== 'start') {
    const misplaced = startOnly.find((name) => values[name] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to 'rollout start'`);
  }
  const wanted = command === 'start' || command === 'list' ? 0 : 1;
  if (operands.length < wanted) throw new UsageError(`'rollout ${command}' needs the rollout's id`);
  if (operands.length > wanted) throw new UsageError(`unexpected argument '${operands[wanted]}'`);
  if (values.reason !== undefined && (command === 'list' || command === 'show'))
    throw new UsageError(`--reason belongs to 'rollout start' and the actions`);
  if (values.server === undefined) throw new UsageError('--server URL (the config server) is required');
  const server = serverUrl(values.server);
  const id = operands[0] ?? '';
  if (wanted === 1 && !/^[A-Za-z0-9._-]{1,100}$/.test(id))
    throw new UsageError(`'${id}' is not a rollout id`);
  const reason = values.reason;
  let request: RolloutRequest;
  if (command === 'list') request = { kind: 'list' };
  else if (command === 'show') request = { kind: 'show', id };
  else if (command === 'start') request = { kind: 'start', body: startBody(values) };
  else if (isAction(command))
    request = { kind: 'action', id, action: command, ...(reason === undefined ? {} : { reason }) };
  else throw new UsageError(`unknown subcommand 'rollout ${command}'`);
  return { help, json, server, request };
}

function startBody(values: Readonly<Record<string, string | boolean | undefined>>): Record<string, unknown> {
  const text = (name: string) => (typeof values[name] === 'string' ? values[name] : undefined);
  const names = [text('application'), text('applications')].filter((v) => v !== undefined);
  if (names.length === 0) throw new UsageError("'rollout start' needs --application NAME[,NAME...]");
  const applications = names.flatMap((list) => splitList(list));
  if (applications.length === 0) throw new UsageError('--application names no application');
  const from = text('from');
  if (from === undefined || from === '') throw new UsageError("'rollout start' needs --from COMMIT");
  const bake = text('bake');
  const reason = text('reason');
  return {
    applications,
    from,
    ...(text('to') === undefined ? {} : { to: text('to') }),
    ...(text('label') === undefined ? {} : { label: text('label') }),
    ...(text('waves') === undefined ? {} : { waves: text('waves') }),
    ...(bake === undefined ? {} : { bakeSeconds: bakeSeconds(bake) }),
    ...(reason === undefined ? {} : { reason }),
  };
}

const UNIT_SECONDS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };

/** `300s`, `5m`, `1h`, `1500ms` or plain seconds (`300`). */
export function bakeSeconds(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) throw new UsageError(`--bake takes a duration such as 300s, 5m or 1h, got '${text}'`);
  return Number(match[1]) * (UNIT_SECONDS[match[2] ?? 's'] ?? 1);
}

function serverUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError("--server takes the config server's http(s) URL");
  return url;
}
