/**
 * `confbus run`'s own options, typed and checked: what to do on a change, the grace period of a restart, the
 * debounce, and how the configuration becomes environment variables. A bad value is a UsageError naming the
 * option (exit 2).
 */
import { constants } from 'node:os';
import { UsageError } from '../command-line.js';
import { type OptionSpecs, parseDuration } from '../follow/command-options.js';
import type { ChildEnvironmentOptions } from './child-environment.js';

export const runOptionSpecs: OptionSpecs = {
  'on-change': {
    type: 'string',
    description:
      'restart (default): stop the child gracefully and start it with the new environment; signal:HUP (any ' +
      'signal name): send it that signal; none: leave it alone',
  },
  'grace-period': {
    type: 'string',
    description: 'How long a restart, or confbus stopping, waits after SIGTERM before SIGKILL (default 10s)',
  },
  debounce: {
    type: 'string',
    description:
      'Wait this long after a change for more before acting, at most 10 times as long (default 500ms)',
  },
  'env-prefix': {
    type: 'string',
    description: 'Put before every variable name: APP_ gives APP_GROUP_COMMENT',
  },
  'env-include': {
    type: 'string',
    description: 'Comma list of keys to export, each with the keys below it (default: every key)',
  },
  'env-override': {
    type: 'boolean',
    description: 'Configuration values replace variables confbus inherited (default: the inherited ones win)',
  },
};

export type OnChange =
  | { readonly kind: 'restart' }
  | { readonly kind: 'signal'; readonly signal: NodeJS.Signals }
  | { readonly kind: 'none' };

export interface RunOptions {
  readonly onChange: OnChange;
  readonly graceMs: number;
  readonly debounceMs: number;
  readonly environment: ChildEnvironmentOptions;
}

export function readRunOptions(options: Readonly<Record<string, string | boolean | undefined>>): RunOptions {
  const prefix = stringOption(options, 'env-prefix') ?? '';
  if (prefix !== '' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(prefix)) {
    throw new UsageError(`option '--env-prefix' must be letters, digits and _ (got '${prefix}')`);
  }
  const include = (stringOption(options, 'env-include') ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  return {
    onChange: parseOnChange(stringOption(options, 'on-change') ?? 'restart'),
    graceMs: parseDuration('grace-period', stringOption(options, 'grace-period') ?? '10s'),
    debounceMs: parseDuration('debounce', stringOption(options, 'debounce') ?? '500ms'),
    environment: { prefix, include, override: options['env-override'] === true },
  };
}

function parseOnChange(value: string): OnChange {
  if (value === 'restart' || value === 'none') return { kind: value };
  const match = /^signal:(?:SIG)?([A-Z0-9]+)$/i.exec(value);
  const signal = match ? (`SIG${match[1]!.toUpperCase()}` as NodeJS.Signals) : undefined;
  if (signal !== undefined && signal in constants.signals && signal !== 'SIGKILL' && signal !== 'SIGSTOP') {
    return { kind: 'signal', signal };
  }
  throw new UsageError(
    `option '--on-change' takes restart, none or signal:NAME such as signal:HUP (got '${value}')`,
  );
}

function stringOption(
  options: Readonly<Record<string, string | boolean | undefined>>,
  name: string,
): string | undefined {
  const value = options[name];
  return typeof value === 'string' ? value : undefined;
}
