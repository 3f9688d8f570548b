/**
 * A command's arguments, parsed strictly with `node:util` `parseArgs`: every option is a setting
 * (`--key=value` or `--key value`, any relaxed spelling), `--help`/`-h` or `--version`; anything else
 * (`-p 9000`, a stray word) is an error instead of being silently dropped.
 * Setting names are open-ended (relaxed spellings, `search-paths[0]`, map entries), so each `--name` is first
 * rewritten to its declared key and the names parseArgs accepts are those keys plus the indexed and map
 * names this command line uses; an unknown one still reaches parseArgs, which rejects it.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  ConfbusError,
  type SettingSpec,
  coreErrors,
  SettingsError,
  type UnsupportedSetting,
} from '@confbus/core';
import { SettingsIndex, unknownSettingMessage, messageOf } from '@confbus/core/internal';

export interface CommandLineOptions {
  /** Undeclared keys: errors (server, cipher) or the application's own properties (client). */
  readonly unknownKeys: 'error' | 'keep';
  readonly unsupported?: readonly UnsupportedSetting[];
  /** Most operands (non-option arguments) the command takes. */
  readonly maxOperands: number;
}

export interface CommandLine {
  readonly help: boolean;
  readonly version: boolean;
  /** `--key=value` per setting, declared keys spelled as declared, in the order given. */
  readonly settingArgs: string[];
  readonly operands: string[];
}

/** A command line that cannot be run as written; the CLI prints it with the usage and exits 2. */
export class UsageError extends ConfbusError<'CONFBUS_USAGE'> {
  override readonly name = 'UsageError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_USAGE, message);
  }
}

const BOOLEAN_WORDS = new Set(['true', 'false', 'yes', 'no', 'on', 'off', '1', '0']);

export function parseCommandLine(
  args: readonly string[],
  specs: readonly SettingSpec[],
  options: CommandLineOptions,
): CommandLine {
  const declared: NonNullable<ParseArgsConfig['options']> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean' },
  };
  for (const spec of specs) declared[spec.key] = { type: 'string' };
  const rewritten = rewriteSettingNames(args, new SettingsIndex(specs, options.unsupported ?? []), {
    declared,
    unknownKeys: options.unknownKeys,
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: rewritten,
      options: declared,
      strict: true,
      allowPositionals: true,
      tokens: true,
    });
  } catch (error) {
    throw usageErrorOf(error, specs);
  }
  const operands = parsed.positionals;
  if (operands.length > options.maxOperands) {
    const extra = operands[options.maxOperands] ?? '';
    throw new UsageError(
      `unexpected argument '${extra}'` +
        (options.maxOperands === 0 ? ': settings are given as --key=value (e.g. --server.port=9000)' : ''),
    );
  }
  const settingArgs: string[] = [];
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.name === 'help' || token.name === 'version') continue;
    settingArgs.push(`--${token.name}=${token.value ?? ''}`);
  }
  return {
    help: parsed.values.help === true,
    version: parsed.values.version === true,
    settingArgs,
    operands,
  };
}

/**
 * Each `--name[=value]` before a `--` rewritten to its declared key (`--search-paths[0]` for a list item), a bare
 * boolean or application flag given `=true`; every key it writes is added to `declared` for parseArgs. Unknown
 * names are kept as written (`unknownKeys: 'error'`: parseArgs then rejects them).
 */
function rewriteSettingNames(
  args: readonly string[],
  index: SettingsIndex,
  {
    declared,
    unknownKeys,
  }: { declared: NonNullable<ParseArgsConfig['options']> } & Pick<CommandLineOptions, 'unknownKeys'>,
): string[] {
  return args.map((arg, position) => {
    if (!arg.startsWith('--') || arg.length === 2 || args.slice(0, position).includes('--')) return arg;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    const value = eq === -1 ? undefined : arg.slice(eq);
    if (name === 'help' || name === 'version') return arg;
    const target = index.targetOf(name);
    let key = name;
    if (target.kind === 'setting') key = target.spec.key;
    else if (target.kind === 'list-item') key = `${target.spec.key}[${target.index}]`;
    else if (target.kind === 'unknown' && unknownKeys === 'error') return arg;
    declared[key] ??= { type: 'string' };
    // `--flag` alone sets a boolean, as in Spring Boot; `--flag false` and `--flag=false` also work.
    const next = args[position + 1];
    const bare = value === undefined && !(next !== undefined && BOOLEAN_WORDS.has(next.toLowerCase()));
    if (target.kind === 'setting' && target.spec.type === 'boolean' && bare) return `--${key}=true`;
    // An application's own flag (`--feature.x`) with no value reads `true`, as before parseArgs.
    if (target.kind === 'unknown' && value === undefined && (next === undefined || next.startsWith('-'))) {
      return `--${key}=true`;
    }
    return `--${key}${value ?? ''}`;
  });
}

function usageErrorOf(error: unknown, specs: readonly SettingSpec[]): Error {
  const code = (error as { code?: string }).code;
  const message = messageOf(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'(-[^']*)'/.exec(message)?.[1] ?? '';
    if (option.startsWith('--')) {
      const name = option.slice(2);
      return new SettingsError(unknownSettingMessage(name, 'argument', specs), name, 'argument');
    }
    return new UsageError(
      `unknown option '${option}': settings are given as --key=value (e.g. --server.port=9000)`,
    );
  }
  if (code?.startsWith('ERR_PARSE_ARGS_')) return new UsageError(message.split('. To specify')[0] ?? message);
  return error instanceof Error ? error : new Error(message);
}
