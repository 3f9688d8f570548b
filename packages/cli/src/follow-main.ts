/**
 * The lean entry of `confbus run` and `confbus render` (bin/confbus.js picks it for those two commands): it loads
 * the config client and the code that follows a child, not the whole command set, so the child starts sooner.
 * `npm run build` bundles it (scripts/bundle-cli.mjs); without the bundle it runs as compiled.
 */
import { UsageError } from './command-line.js';
import { settleCommand } from './command-outcome.js';
import { FOLLOW_USAGE, runFollowCommand } from './follow-commands.js';

const [command, ...args] = process.argv.slice(2);
if (command === 'run' || command === 'render')
  settleCommand(
    runFollowCommand(command, args, { env: process.env, cwd: process.cwd() }),
    FOLLOW_USAGE[command],
  );
else settleCommand(Promise.reject(new UsageError(`not a follow command: '${command ?? ''}'`)), '');
