/**
 * The check itself: the repository's contracts at the revision, the environments they cover built by the
 * server's EnvironmentService (openOfflineEnvironments), each validated against all its contracts. A file or
 * contract that cannot be read is a failure, as it would be on the server: it is reported, never skipped.
 */
import { eachWithin, messageOf } from '@confbus/core/internal';
import {
  type CheckTarget,
  type Contract,
  SchemaCompiler,
  type Violation,
  checkTargets,
  contractApplicationOf,
  contractsFor,
  parseContract,
  validateEnvironment,
} from '@confbus/contracts';
import {
  type OfflineEnvironments,
  openOfflineEnvironments,
  profilesInDocuments,
} from '@confbus/server/offline';
import type { CheckedRepository } from './checked-repository.js';
import type { CheckOptions } from './check-options.js';

/** Property sources are named `<DISPLAY_URI>/<path>`: with none, the name is `/<path>`. */
export const DISPLAY_URI = '';

/** The server's environment builder over the repository checked. */
export function openCheckEnvironments(
  checked: CheckedRepository,
  searchPaths: readonly string[],
): OfflineEnvironments {
  return openOfflineEnvironments({ repository: checked.repository, displayUri: DISPLAY_URI, searchPaths });
}

export interface CheckFailure {
  /** The environment it stopped (undefined: the repository's contracts themselves). */
  readonly target?: CheckTarget;
  readonly message: string;
}

export interface CheckResult {
  readonly targets: readonly CheckTarget[];
  readonly contracts: readonly Contract[];
  readonly violations: readonly Violation[];
  readonly failures: readonly CheckFailure[];
}

/** Environments built and checked at once: enough to keep git and the parser busy on two cores. */
const CONCURRENCY = 8;

/**
 * `environments` builds from `checked.repository` (openCheckEnvironments); `published`: contracts running services
 * published to a server (--server), enforced beside the repository's as the server's gate does.
 */
export async function runCheck(
  checked: CheckedRepository,
  environments: OfflineEnvironments,
  options: Pick<CheckOptions, 'profiles' | 'applications'>,
  /** Told after each environment checked (the command shows it on a terminal). */
  progress: (done: number, total: number) => void = () => undefined,
  published: readonly Contract[] = [],
): Promise<CheckResult> {
  const { repository, revision } = checked;
  const files = await repository.listFiles(revision);
  const failures: CheckFailure[] = [];
  // Read all at once: the repository's cat-file reader pipelines them (one at a time, 500 cost seconds).
  const read = await Promise.all(
    [...files]
      .sort()
      .flatMap((path) => {
        const application = contractApplicationOf(path);
        return application === undefined ? [] : [{ path, application }];
      })
      .map(async ({ path, application }) => {
        try {
          const bytes = await repository.readFile(revision, path);
          return bytes === undefined ? undefined : parseContract(path, application, bytes.toString('utf8'));
        } catch (error) {
          failures.push({ message: messageOf(error) });
          return undefined;
        }
      }),
  );
  const contracts = [...read.filter((contract) => contract !== undefined), ...published];
  const targets = checkTargets(files, contracts, {
    ...options,
    ...(options.profiles
      ? {}
      : { documentProfiles: await profilesInDocuments(environments, revision, files) }),
  });
  const compiler = new SchemaCompiler();
  const found: Violation[][] = [];
  let done = 0;
  await eachWithin(targets, CONCURRENCY, async (target, index) => {
    try {
      found[index] = await checkOne(environments, compiler, revision, target, contracts);
    } catch (error) {
      failures.push({ target, message: messageOf(error) });
    }
    progress(++done, targets.length);
  });
  return { targets, contracts, violations: found.flat(), failures };
}

async function checkOne(
  environments: OfflineEnvironments,
  compiler: SchemaCompiler,
  revision: string,
  target: CheckTarget,
  contracts: readonly Contract[],
): Promise<Violation[]> {
  const environment = await environments.find([target.application], target.profiles, revision);
  return validateEnvironment(
    { ...target, environment },
    contractsFor(target.application, contracts),
    compiler,
  );
}
