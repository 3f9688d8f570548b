/**
 * `confbus check`: validates a configuration repository's working tree, a commit or the tip of a range against
 * its contracts, offline, for CI and for a Git pre-receive hook (docs/contracts.md). Violations go to standard
 * output, one per line; the summary and errors to standard error. Exit status: 0 clean, 1 violations or
 * configuration that cannot be read, 2 usage error (thrown as UsageError, which main.ts turns into 2).
 */
import { CONTRACTS_DIRECTORY } from '@confbus/contracts';
import { CHECK_USAGE, parseCheckOptions } from './check-options.js';
import { failureLines, impactLines, summaryLine, violationLines } from './check-report.js';
import { openCheckedRepository } from './checked-repository.js';
import { CheckServerUnavailableError, ConfigServerReads } from './config-server-reads.js';
import { impactOf } from './impact.js';
import { openCheckEnvironments, runCheck } from './run-check.js';
import { publishedContracts } from './server-contracts.js';

export interface CheckCommandIo {
  readonly cwd: string;
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  /** Rewrites one status line on a terminal (standard error); absent when it is not one. */
  readonly status?: (text: string) => void;
}

/** Environments between two progress updates on a terminal. */
const PROGRESS_EVERY = 100;

export async function runCheckCommand(args: readonly string[], io: CheckCommandIo): Promise<number> {
  const options = parseCheckOptions(args, io.cwd);
  if (options.help) {
    io.out(CHECK_USAGE);
    return 0;
  }
  const started = performance.now();
  const checked = await openCheckedRepository(options.repo, options.state);
  const environments = openCheckEnvironments(checked, options.searchPaths);
  // With --server, what the server knows is asked for: a server that cannot answer fails the check, after the rest.
  const server = options.server ? new ConfigServerReads(options.server) : undefined;
  const serverErrors: string[] = [];
  try {
    const published = server
      ? await publishedContracts(server).catch((error: unknown) => unavailable(error, serverErrors, []))
      : [];
    const { status } = io;
    const progress = (done: number, total: number) => {
      if (status && (done % PROGRESS_EVERY === 0 || done === total))
        status(done === total ? '' : `checked ${done} of ${total} environments`);
    };
    const result = await runCheck(checked, environments, options, progress, published);
    if (options.impact) {
      const impact = await impactOf(checked, environments, options, server).catch((error: unknown) => {
        unavailable(error, serverErrors, undefined);
        return impactOf(checked, environments, options);
      });
      for (const line of impactLines(impact)) io.out(line);
    }
    for (const line of violationLines(result.violations)) io.out(line);
    for (const message of serverErrors) io.err(`error: ${message}`);
    for (const line of failureLines(result.failures)) io.err(line);
    if (result.contracts.length === 0)
      io.err(
        `confbus check: no contracts in ${CONTRACTS_DIRECTORY}/ of ${options.repo}` +
          `${server ? ' nor published to the server' : ''}: nothing was checked`,
      );
    io.err(summaryLine(result, checked.revision, Math.round(performance.now() - started)));
    return result.violations.length + result.failures.length + serverErrors.length === 0 ? 0 : 1;
  } finally {
    await environments.close();
    await checked.close();
  }
}

/** A server that cannot answer is noted (the check goes on without what it would have said); anything else throws. */
function unavailable<T>(error: unknown, serverErrors: string[], fallback: T): T {
  if (!(error instanceof CheckServerUnavailableError)) throw error;
  serverErrors.push(error.message);
  return fallback;
}
