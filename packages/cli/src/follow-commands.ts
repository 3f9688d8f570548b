/**
 * The commands that follow the configuration for another process: `confbus run` (environment variables) and
 * `confbus render` (files). Each has its own options beside the config client's settings; `--help` lists them.
 */
import { describeOptions, type OptionSpecs } from './follow/command-options.js';

export interface FollowCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

export const FOLLOW_USAGE = {
  run: 'Usage: confbus run [--key=value ...] [options] -- COMMAND ARGS...',
  render: 'Usage: confbus render --template=FILE --out=FILE [--exec=CMD] [--key=value ...] [options]',
} as const;

export async function runFollowCommand(
  command: 'run' | 'render',
  args: readonly string[],
  io: FollowCommandIo,
): Promise<number> {
  const ownArgs = args.includes('--') ? args.slice(0, args.indexOf('--')) : args;
  if (command === 'run') {
    const { runRunCommand } = await import('./run/run-command.js');
    if (wantsHelp(ownArgs)) return printHelp(command, (await import('./run/run-options.js')).runOptionSpecs);
    return runRunCommand(args, io);
  }
  const { runRenderCommand } = await import('./render/render-command.js');
  if (wantsHelp(ownArgs))
    return printHelp(command, (await import('./render/render-options.js')).renderOptionSpecs);
  return runRenderCommand(args, io);
}

function wantsHelp(args: readonly string[]): boolean {
  return args.includes('--help') || args.includes('-h');
}

function printHelp(command: 'run' | 'render', specs: OptionSpecs): number {
  console.log(
    `${FOLLOW_USAGE[command]}\n\nOptions:\n${describeOptions(specs)}\n\n` +
      "Settings are the config client's (confbus help lists them): --spring.application.name=..., " +
      '--spring.profiles.active=..., --spring.cloud.config.uri=..., the bus keys. See docs/run-and-render.md.',
  );
  return 0;
}
