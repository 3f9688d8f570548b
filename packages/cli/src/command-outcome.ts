/**
 * How a `confbus` command ends: its status becomes the exit code; a failure prints one line (with the usage
 * text for a usage error) instead of a stack trace. Shared by the full entry (main.ts) and the lean one for
 * `run`/`render` (follow-main.ts), so both fail alike.
 */
import { SettingsError, isConfbusError } from '@confbus/core';
import { UsageError } from './command-line.js';

export function settleCommand(status: Promise<number>, usage: string): void {
  status.then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      if (error instanceof UsageError) console.error(`confbus: ${error.message}\n\n${usage}`);
      else if (error instanceof SettingsError || isConfbusError(error))
        console.error(`confbus: ${error.message}`);
      else console.error('confbus: failed to start:', error instanceof Error ? error.message : error);
      process.exitCode = error instanceof UsageError ? 2 : 1;
      // A failed start has closed what it opened; should a library still hold a handle, exit all the same
      // rather than linger (a lingering process would also take the signal meant to stop it).
      setTimeout(() => process.exit(), 1000).unref();
    },
  );
}
