/**
 * What changed between a commit and its first parent, as the gate's verdict inheritance reads it: the paths whose
 * blob ids differ, and whether such a path can change what an application reads or is judged by.
 */
import { EVERY_APPLICATION, contractApplicationOf, isConfigPath, stemOf } from '@confbus/contracts';

/**
 * The changed paths of one commit since its parent, worked out once and shared by every application judged at the
 * commit (a diff of 2,000 blob ids for each of 500 applications was a third of a push's verdict). A commit has one
 * first parent, so one answer is kept; a failed read is tried again when asked again.
 */
export function changedSinceOnce(
  diff: (parent: string) => Promise<readonly string[] | undefined>,
): (parent: string) => Promise<readonly string[] | undefined> {
  let kept: { parent: string; paths: Promise<readonly string[] | undefined> } | undefined;
  return (parent) => {
    if (kept?.parent !== parent) {
      const paths = diff(parent);
      kept = { parent, paths };
      paths.catch(() => {
        if (kept?.paths === paths) kept = undefined;
      });
    }
    return kept.paths;
  };
}

/** Paths added, removed or changed between two commits' blob ids. */
export function changedPaths(
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
): string[] {
  const changed: string[] = [];
  for (const [path, id] of after) if (before.get(path) !== id) changed.push(path);
  for (const path of before.keys()) if (!after.has(path)) changed.push(path);
  return changed;
}

/**
 * Whether a changed path can change what an application reads or is judged by: its own or the common contract;
 * `application*` files; its own files (`shop.yml`, `shop-prod.yml`); and, to stay on the safe side, any
 * configuration file that belongs to no other known application (an imported file, a search-path directory).
 */
export function concerns(path: string, application: string, known: ReadonlySet<string>): boolean {
  const contractOf = contractApplicationOf(path);
  if (contractOf !== undefined) return contractOf === application || contractOf === EVERY_APPLICATION;
  if (!isConfigPath(path)) return false;
  const stem = stemOf(path);
  if (stem === EVERY_APPLICATION || stem.startsWith(`${EVERY_APPLICATION}-`)) return true;
  if (stem === application || stem.startsWith(`${application}-`)) return true;
  for (let end = stem.length; end > 0; end = stem.lastIndexOf('-', end - 1)) {
    if (known.has(stem.slice(0, end))) return false;
  }
  return true;
}
