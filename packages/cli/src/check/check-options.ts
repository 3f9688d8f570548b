/**
 * `confbus check`'s command line: what to check (a working tree, a commit, the tip of a range), where, and
 * which environments. Parsed strictly (node:util parseArgs): an unknown option or a stray word is a usage error.
 */
import { splitList } from '@confbus/core/internal';
import { UsageError } from '../command-line.js';
import { parseStrictArguments } from '../strict-arguments.js';

export type CheckedState =
  | { readonly kind: 'working-tree' }
  | { readonly kind: 'commit'; readonly revision: string }
  | { readonly kind: 'range'; readonly from: string; readonly to: string };

export interface CheckOptions {
  readonly help: boolean;
  /** The repository (work tree or bare); default: the current directory. */
  readonly repo: string;
  readonly state: CheckedState;
  /** List what the commit or range changes: applications, profiles, keys. */
  readonly impact: boolean;
  readonly profiles?: readonly string[];
  readonly applications?: readonly string[];
  /** As the server's spring.cloud.config.server.git.search-paths. */
  readonly searchPaths: readonly string[];
  /**
   * A config server: the contracts its running services published are enforced too, and with --impact its fleet
   * view names the running instances a change reaches.
   */
  readonly server?: URL;
}

export const CHECK_USAGE = `Usage: confbus check [--repo DIR] [--commit REV | --range A..B] [--impact] [--server URL]
                     [--profiles P,...] [--applications A,...] [--search-paths PATH,...]

Builds every (application, profile) environment that has a contract the way the server does (profiles: default,
those in file names and those documents activate on; or --profiles, each on its own) and checks it
against the repository's contracts (.confbus/contracts/{application}.schema.json; application.schema.json
applies to every application). Without --commit or --range, the working tree's files are checked (tracked and
untracked, .gitignore respected). --range checks the tip B; --impact lists what A..B (or REV against its first
parent) changes. --server URL (credentials as https://user:password@host) enforces the contracts running
services published to that config server too and, with --impact, names the running instances each change
reaches (the server's fleet view); a server that cannot answer fails the check.
Prints 'file:line key: message' per violation; exit status 0 clean, 1 violations or unreadable configuration,
2 usage error.`;

export function parseCheckOptions(args: readonly string[], cwd: string): CheckOptions {
  const parsed = parseStrictArguments(args, {
    help: { type: 'boolean', short: 'h' },
    repo: { type: 'string' },
    commit: { type: 'string' },
    range: { type: 'string' },
    impact: { type: 'boolean' },
    profiles: { type: 'string' },
    applications: { type: 'string' },
    'search-paths': { type: 'string' },
    server: { type: 'string' },
  });
  const { values, positionals } = parsed;
  if (positionals.length > 0) throw new UsageError(`unexpected argument '${positionals[0]}'`);
  if (values.commit !== undefined && values.range !== undefined)
    throw new UsageError('give --commit or --range, not both');
  const state = stateOf(values.commit, values.range);
  if (values.impact && state.kind === 'working-tree')
    throw new UsageError('--impact needs --commit REV or --range A..B');
  const server = values.server === undefined ? undefined : serverUrl(values.server);
  const list = (text: string | undefined) => (text === undefined ? undefined : nonEmptyList(text));
  const profiles = list(values.profiles);
  const applications = list(values.applications);
  return {
    help: values.help === true,
    repo: values.repo ?? cwd,
    state,
    impact: values.impact === true,
    ...(profiles ? { profiles } : {}),
    ...(applications ? { applications } : {}),
    searchPaths: list(values['search-paths']) ?? [],
    ...(server ? { server } : {}),
  };
}

function stateOf(commit: string | undefined, range: string | undefined): CheckedState {
  if (commit !== undefined) {
    if (commit === '' || commit.startsWith('-'))
      throw new UsageError(`--commit needs a revision, got '${commit}'`);
    return { kind: 'commit', revision: commit };
  }
  if (range === undefined) return { kind: 'working-tree' };
  const [from, to, ...rest] = range.split('..');
  const usable = (revision: string | undefined): revision is string =>
    revision !== undefined && revision !== '' && !revision.startsWith('-') && !revision.startsWith('.');
  if (rest.length > 0 || !usable(from) || !usable(to))
    throw new UsageError(`--range takes A..B (two revisions), got '${range}'`);
  return { kind: 'range', from, to };
}

function serverUrl(text: string): URL {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
    throw new UsageError("--server takes the config server's http(s) URL");
  return url;
}

function nonEmptyList(text: string): string[] {
  const items = splitList(text);
  if (items.length === 0) throw new UsageError(`an empty list: '${text}'`);
  return items;
}
