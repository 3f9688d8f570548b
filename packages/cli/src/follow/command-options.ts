/**
 * The options of `confbus run` and `confbus render` (`--on-change=restart`, `--template T`), told apart from the
 * settings on the same command line (`--spring.application.name=app`): an option is one of the names the
 * command declares, everything else is a setting for the config client. Options are parsed strictly with
 * `node:util` parseArgs; a bad one is a UsageError naming it (the CLI exits 2).
 */
import { parseArgs } from 'node:util';
import { type SettingSpec, SettingsError } from '@confbus/core';
import { unknownSettingMessage } from '@confbus/core/internal';
import { type CommandLine, UsageError, parseCommandLine } from '../command-line.js';

export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  /** One line for `confbus help`. */
  readonly description: string;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

export interface SplitCommandLine {
  /** The declared options given, by name: a string, or true for a boolean flag. */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  /** Everything else before `--`: settings and operands, as given. */
  readonly rest: string[];
  /** What follows the first `--` (the command to run), or undefined when there is no `--`. */
  readonly afterDashes: string[] | undefined;
}

/** Splits `args` into the command's own options, the rest (settings), and what follows `--`. */
export function splitCommandLine(args: readonly string[], specs: OptionSpecs): SplitCommandLine {
  const dashes = args.indexOf('--');
  const before = dashes === -1 ? args : args.slice(0, dashes);
  const optionArgs: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < before.length; i++) {
    const arg = before[i]!;
    const name = optionName(arg);
    const spec = name === undefined ? undefined : specs[name];
    if (spec === undefined) {
      rest.push(arg);
      continue;
    }
    optionArgs.push(arg);
    if (spec.type !== 'string' || arg.includes('=')) continue;
    // `--template T`: the value is the next argument.
    const next = before[i + 1];
    if (next === undefined || next.startsWith('--')) throw new UsageError(`option '--${name}' needs a value`);
    optionArgs.push(next);
    i++;
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: optionArgs,
      options: Object.fromEntries(Object.entries(specs).map(([name, spec]) => [name, { type: spec.type }])),
      strict: true,
      allowPositionals: false,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.split('. To specify')[0] ?? message);
  }
  for (const [name, value] of Object.entries(parsed.values)) {
    if (specs[name]?.type === 'string' && (value === '' || (value as string).startsWith('--'))) {
      throw new UsageError(`option '--${name}' needs a value`);
    }
  }
  return {
    options: { ...parsed.values } as Record<string, string | boolean | undefined>,
    rest,
    afterDashes: dashes === -1 ? undefined : args.slice(dashes + 1),
  };
}

/**
 * The settings part of the command line (the config client's settings, no operands). An unknown `--name` is a
 * usage error here, naming it and the command's options: it may be a mistyped option as well as a setting.
 */
export function parseSettingArgs(
  command: string,
  rest: readonly string[],
  settingSpecs: readonly SettingSpec[],
  optionSpecs: OptionSpecs,
): CommandLine {
  try {
    return parseCommandLine(rest, settingSpecs, { unknownKeys: 'error', maxOperands: 0 });
  } catch (error) {
    if (!(error instanceof SettingsError) || error.source !== 'argument') throw error;
    // Options and settings both are candidates for "did you mean": `--on-chnage` suggests `--on-change`.
    const candidates = [
      ...settingSpecs,
      ...Object.entries(optionSpecs).map(([key, spec]) => ({ key, ...spec })),
    ];
    const near = /Did you mean '([^']+)'/.exec(unknownSettingMessage(error.key, 'argument', candidates))?.[1];
    const hint = near === undefined ? '' : ` Did you mean '--${near}'?`;
    const options = Object.keys(optionSpecs).map((name) => `--${name}`);
    throw new UsageError(
      `unknown option '--${error.key}' for confbus ${command}.${hint} Its options are ${options.join(', ')}; ` +
        "its settings are the config client's (confbus help lists them)",
    );
  }
}

function optionName(arg: string): string | undefined {
  if (!arg.startsWith('--') || arg.length === 2) return undefined;
  const eq = arg.indexOf('=');
  return eq === -1 ? arg.slice(2) : arg.slice(2, eq);
}

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000 } as const;

/** `500ms`, `10s`, `2m` or a plain number of milliseconds; a UsageError naming the option otherwise. */
export function parseDuration(option: string, value: string): number {
  const match = DURATION.exec(value.trim());
  if (!match) {
    throw new UsageError(`option '--${option}' takes a duration such as 500ms, 10s or 2m (got '${value}')`);
  }
  return Math.round(Number(match[1]) * UNIT_MS[(match[2] ?? 'ms') as keyof typeof UNIT_MS]);
}

/** `confbus help` lines for a command's options. */
export function describeOptions(specs: OptionSpecs): string {
  return Object.entries(specs)
    .map(
      ([name, spec]) => `  --${name}${spec.type === 'string' ? '=<value>' : ''}\n      ${spec.description}`,
    )
    .join('\n');
}
