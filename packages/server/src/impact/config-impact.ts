/**
 * The blast radius of a change between two commits: which (application, profile) environments get a different
 * effective configuration, and which keys are added, removed or changed. Values are compared, never returned
 * (they may be secrets). One computation for `confbus check --impact` (offline) and `POST /monitor?impact=true`
 * (the server, on the push it just fetched): both build environments exactly as the server serves them.
 */
import {
  type ConfigDocument,
  type Environment,
  type FlatProperties,
  isConfigFileName,
  mergeForRendering,
} from '@confbus/core';
import { eachWithin, samePropertyValue } from '@confbus/core/internal';
import {
  type CheckTarget,
  type Contract,
  EVERY_APPLICATION,
  checkTargets,
  isConfigPath,
  profilesActivating,
} from '@confbus/contracts';

/** What the impact is computed from: the repository's files and the server's environment builder. */
export interface ImpactSource {
  listFiles(commit: string): Promise<readonly string[]>;
  find(applications: readonly string[], profiles: readonly string[], commit: string): Promise<Environment>;
  /** A file's documents at a commit, parsed through the cache the builds use. */
  documents(commit: string, path: string): Promise<readonly ConfigDocument[]>;
}

export interface ImpactRequest {
  /** The commit after the change. */
  readonly revision: string;
  /** The commit before it; undefined: everything is new (a root commit). */
  readonly base: string | undefined;
  /** The paths the change touches. */
  readonly files: readonly string[];
  /** Only these profiles (each on its own), instead of those file names and documents name. */
  readonly profiles?: readonly string[];
  /** Only these applications. */
  readonly applications?: readonly string[];
  /** At most this many environments are compared (the rest are counted in `skipped`). */
  readonly maxEnvironments?: number;
}

export interface EnvironmentImpact extends CheckTarget {
  readonly added: readonly string[];
  readonly removed: readonly string[];
  readonly changed: readonly string[];
}

export interface ConfigImpact {
  /** The paths the change touches, sorted. */
  readonly files: readonly string[];
  /** The environments whose effective configuration differs, in application then profile order. */
  readonly environments: readonly EnvironmentImpact[];
  /** Environments not compared because of maxEnvironments. */
  readonly skipped: number;
}

/** Environments built and compared at once: enough to keep git and the parser busy on two cores. */
const CONCURRENCY = 8;
/** Files read for their documents' profiles at once (reads are pipelined through one cat-file process). */
const FILES_AT_ONCE = 32;
/** Stands for "a contract for every application": the impact looks at all applications the files name. */
const EVERY: readonly Contract[] = [{ application: EVERY_APPLICATION, name: '', schema: {} }];

export async function configImpact(source: ImpactSource, request: ImpactRequest): Promise<ConfigImpact> {
  const { revision, base } = request;
  const files = [...request.files].sort();
  if (!files.some(isConfigFileName)) return { files, environments: [], skipped: 0 };
  const paths = new Set(await source.listFiles(revision));
  if (base !== undefined) for (const path of await source.listFiles(base)) paths.add(path);
  const { profiles, applications } = request;
  const targets = checkTargets([...paths], EVERY, {
    ...(applications ? { applications } : {}),
    ...(profiles
      ? { profiles }
      : { documentProfiles: await profilesInDocuments(source, revision, [...paths]) }),
  });
  const compared = targets.slice(0, request.maxEnvironments ?? targets.length);
  const impacts: Array<EnvironmentImpact | undefined> = [];
  await eachWithin(compared, CONCURRENCY, async (target, index) => {
    try {
      const after = await effective(source, target, revision);
      const before = base === undefined ? new Map() : await effective(source, target, base);
      impacts[index] = differences(target, before, after);
    } catch {
      // A file that does not parse: the check (or the webhook) reports it; its keys cannot be compared.
    }
  });
  return {
    files,
    environments: impacts.filter((impact) => impact !== undefined),
    skipped: targets.length - compared.length,
  };
}

/**
 * The profiles each configuration file's documents activate on (`spring.config.activate.on-profile`), read
 * through the builder's parse cache, so the builds that follow parse nothing again. A file that does not parse
 * names none here; its build reports it.
 */
export async function profilesInDocuments(
  source: Pick<ImpactSource, 'documents'>,
  revision: string,
  files: readonly string[],
): Promise<Map<string, string[]>> {
  const named = new Map<string, string[]>();
  const configFiles = files.filter(isConfigPath);
  await eachWithin(configFiles, FILES_AT_ONCE, async (path) => {
    const documents = await source.documents(revision, path).catch(() => []);
    const profiles = documents.flatMap((d) => (d.activation ? profilesActivating(d.activation) : []));
    if (profiles.length > 0) named.set(path, profiles);
  });
  return named;
}

async function effective(source: ImpactSource, target: CheckTarget, commit: string) {
  const environment = await source.find([target.application], target.profiles, commit);
  return mergeForRendering(environment.propertySources);
}

function differences(
  target: CheckTarget,
  before: FlatProperties,
  after: FlatProperties,
): EnvironmentImpact | undefined {
  const added: string[] = [];
  const changed: string[] = [];
  for (const [key, value] of after) {
    if (!before.has(key)) added.push(key);
    else if (!samePropertyValue(before.get(key), value)) changed.push(key);
  }
  const removed = [...before.keys()].filter((key) => !after.has(key));
  if (added.length + changed.length + removed.length === 0) return undefined;
  return { ...target, added: added.sort(), removed: removed.sort(), changed: changed.sort() };
}
