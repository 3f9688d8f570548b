/**
 * The contract commands, loaded on demand (the server and client commands never load Ajv): `confbus check …` and
 * `confbus contracts import …` (docs/contracts.md).
 */
import { runCheckCommand, type CheckCommandIo } from './check/check-command.js';
import { UsageError } from './command-line.js';
import { runImportCommand } from './contracts-import-command.js';

export async function runContractsCommand(
  command: 'check' | 'contracts',
  args: readonly string[],
  io: CheckCommandIo,
): Promise<number> {
  if (command === 'check') return runCheckCommand(args, { ...io, ...terminalStatus() });
  const [subcommand, ...rest] = args;
  if (subcommand === 'import') return runImportCommand(rest, io);
  throw new UsageError(
    subcommand === undefined
      ? "'contracts' needs a subcommand: import"
      : `unknown subcommand 'contracts ${subcommand}'`,
  );
}

/** A status line rewritten in place when standard error is a terminal (progress of a long check). */
function terminalStatus(): Pick<CheckCommandIo, 'status'> {
  if (!process.stderr.isTTY) return {};
  return { status: (text) => void process.stderr.write(`\r\x1b[K${text}`) };
}
