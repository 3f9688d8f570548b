/**
 * `confbus run [--key=value ...] [options] -- COMMAND ARGS...`: fetches the configuration with the config client,
 * starts COMMAND with it as environment variables, passes signals on, and exits with the child's status. On a
 * change (bus, poll; a watch stream later) it restarts the child gracefully, signals it, or leaves it alone,
 * debounced, and only when what the child would see changed. A configuration that failed to fetch, parse or
 * decrypt never reaches the child: the client does not apply it. Log lines go to standard error; no value
 * is ever logged, only keys and variable names.
 */
import { clientSettingSpecs } from '@confbus/client';
import type { Logger } from '@confbus/core';
import { UsageError } from '../command-line.js';
import { ClientConfigFeed } from '../follow/client-config-feed.js';
import { parseSettingArgs, splitCommandLine } from '../follow/command-options.js';
import type { ConfigState } from '../follow/config-feed.js';
import { Debouncer } from '../follow/debouncer.js';
import { type ChildEnvironment, buildChildEnvironment, environmentsDiffer } from './child-environment.js';
import { ChildSupervisor } from './child-supervisor.js';
import { type RunOptions, readRunOptions, runOptionSpecs } from './run-options.js';

export interface RunCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

/** Signals passed on to the child. SIGUSR1 is Node's debugger signal: not taken. */
const FORWARDED_SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGQUIT', 'SIGUSR2'];
/** A debounce waits at most this many times its delay for a burst to end. */
const MAX_WAIT_FACTOR = 10;

export async function runRunCommand(args: readonly string[], io: RunCommandIo): Promise<number> {
  const split = splitCommandLine(args, runOptionSpecs);
  const [command, ...commandArgs] = split.afterDashes ?? [];
  if (command === undefined) {
    throw new UsageError(
      "confbus run needs the command after '--': confbus run [--key=value ...] -- COMMAND ARGS",
    );
  }
  const line = parseSettingArgs('run', split.rest, clientSettingSpecs, runOptionSpecs);
  const options = readRunOptions(split.options);

  const fetchStarted = performance.now();
  const feed = await ClientConfigFeed.start({
    args: line.settingArgs,
    env: io.env,
    cwd: io.cwd,
    name: 'confbus-run',
    purpose: command,
  });
  const fetchMs = Math.round(performance.now() - fetchStarted);
  const { logger } = feed;
  const environment = new EnvironmentTracker(io.env, options, logger);
  const first = environment.build(feed.current);

  const supervisor = new ChildSupervisor({ command, args: commandArgs }, options.graceMs, logger);
  const forward = (signal: NodeJS.Signals) => supervisor.forward(signal);
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forward);
  supervisor.start(first.env);
  // A command that could not be started has no pid: its exit (127 or 126) says why, below.
  if (supervisor.pid !== undefined)
    logger.info(
      {
        childPid: supervisor.pid,
        configVersion: feed.current.version,
        variables: first.exported.size,
        fetchMs,
        startedAtMs: Math.round(performance.now()),
      },
      `Started ${command} with ${first.exported.size} variables from the configuration`,
    );
  environment.accept(first);

  const debouncer = new Debouncer<ConfigState>(
    { delay: options.debounceMs, maxWait: options.debounceMs * MAX_WAIT_FACTOR },
    (state) => applyChange(state, { environment, supervisor, options, logger }),
  );
  feed.follow({
    changed: (state) => debouncer.push(state),
    shutdownRequested: () => {
      logger.info({}, 'busshutdown received: stopping the child');
      supervisor.forward('SIGTERM');
    },
  });

  const status = await supervisor.done;
  for (const signal of FORWARDED_SIGNALS) process.off(signal, forward);
  await debouncer.stop();
  await feed.close();
  const log = status.code === 0 ? logger.info.bind(logger) : logger.warn.bind(logger);
  log({ exitCode: status.code }, `${command} ended (${status.description})`);
  return status.code;
}

interface ChangeParts {
  readonly environment: EnvironmentTracker;
  readonly supervisor: ChildSupervisor;
  readonly options: RunOptions;
  readonly logger: Logger;
}

/** A new configuration, after the debounce: act only when the child's environment would change. */
async function applyChange(state: ConfigState, parts: ChangeParts): Promise<void> {
  const { environment, supervisor, options, logger } = parts;
  try {
    const next = environment.build(state);
    if (!environment.differs(next)) {
      logger.info(
        { configVersion: state.version },
        'Configuration changed, but nothing the child sees: left as it is',
      );
      return;
    }
    environment.accept(next);
    const onChange = options.onChange;
    if (onChange.kind === 'restart') {
      logger.info({ configVersion: state.version }, 'Configuration changed: restarting the child');
      await supervisor.restart(next.env);
    } else if (onChange.kind === 'signal') {
      logger.info(
        { configVersion: state.version },
        `Configuration changed: sending ${onChange.signal} to the child`,
      );
      supervisor.signal(onChange.signal);
    } else {
      logger.info(
        { configVersion: state.version },
        'Configuration changed: --on-change=none, child left alone',
      );
    }
  } catch (error) {
    // The child keeps running on what it has; the message names no value.
    logger.error(
      {},
      `Could not apply the configuration change: ${error instanceof Error ? error.message : error}`,
    );
  }
}

/** The environment the child runs with, and the warnings already given (each once). */
class EnvironmentTracker {
  #current: Readonly<Record<string, string>> = {};
  readonly #warned = new Set<string>();

  constructor(
    private readonly inherited: Readonly<Record<string, string | undefined>>,
    private readonly options: RunOptions,
    private readonly logger: Logger,
  ) {}

  build(state: ConfigState): ChildEnvironment {
    const view = state.view;
    const built = buildChildEnvironment(
      { keys: state.keys, value: (key) => stringOf(view.get(key)) },
      this.inherited,
      this.options.environment,
    );
    for (const warning of built.warnings) {
      if (this.#warned.has(warning)) continue;
      this.#warned.add(warning);
      this.logger.warn({}, warning);
    }
    return built;
  }

  differs(next: ChildEnvironment): boolean {
    return environmentsDiffer(this.#current, next.env);
  }

  accept(next: ChildEnvironment): void {
    this.#current = next.env;
  }
}

function stringOf(value: unknown): string | undefined {
  return value === undefined ? undefined : String(value);
}
