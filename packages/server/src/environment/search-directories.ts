/**
 * Expands `search-paths` (with `{application}`, `{profile}`, `{label}` placeholders and Ant wildcards)
 * into the repository directories to look in. The root is always searched first, as Spring does. Wildcards are
 * matched as Spring's AntPathMatcher does (`*` and `?` within a directory name, `**` across any number), by core's
 * linear matcher: directory names come from the repository, so no backtracking RegExp meets them.
 */
import { posix } from 'node:path';
import { antMatch } from '@confbus/core/internal';

/**
 * A search path's token for one directory per label of the requested label list, the last label first (so the
 * first label wins): the native backend's label folders, as Spring's NativeEnvironmentRepository.getLocations
 * adds them for `ignore,applicationxyz`. `{label}` is always the label as requested, whole.
 */
export const EACH_LABEL = '{each-label}';

export interface SearchContext {
  applications: readonly string[];
  profiles: readonly string[];
  label: string;
}

export function expandSearchDirectories(
  patterns: readonly string[],
  context: SearchContext,
  directoriesInTree: ReadonlySet<string>,
): string[] {
  const out = [''];
  for (const pattern of patterns) {
    for (const expanded of expandPlaceholders(pattern, context)) {
      const clean = expanded.replace(/^\/+|\/+$/g, '');
      if (clean === '' || clean.split('/').some((part) => part === '..' || part === '.')) continue;
      if (isGitDirectory(clean)) continue;
      if (/[*?]/.test(clean)) {
        for (const dir of [...directoriesInTree].sort()) {
          if (antMatch(clean, dir, '/') && !isGitDirectory(dir)) out.push(dir);
        }
      } else if (directoriesInTree.has(clean)) {
        out.push(clean);
      }
    }
  }
  return [...new Set(out)];
}

/**
 * A crafted repository can hold a tree entry named `.git` (git itself refuses to check one out); files under
 * it are never configuration, whatever the search paths say.
 */
function isGitDirectory(dir: string): boolean {
  return dir.split('/').some((part) => part.toLowerCase() === '.git');
}

/** Every directory that holds at least one file, for wildcard matching. */
export function directoriesOf(files: readonly string[]): Set<string> {
  const dirs = new Set<string>();
  for (const file of files) {
    let dir = posix.dirname(file);
    while (dir !== '.' && !dirs.has(dir)) {
      dirs.add(dir);
      dir = posix.dirname(dir);
    }
  }
  return dirs;
}

function expandPlaceholders(pattern: string, context: SearchContext): string[] {
  let results = [pattern];
  const substitute = (token: string, values: readonly string[]): void => {
    if (!pattern.includes(token)) return;
    results = results.flatMap((r) => values.map((v) => r.split(token).join(v)));
  };
  substitute('{application}', context.applications);
  substitute('{profile}', context.profiles);
  substitute(
    EACH_LABEL,
    context.label
      .split(',')
      .map((label) => label.trim())
      .filter((label) => label !== '')
      .reverse(),
  );
  substitute('{label}', [context.label]);
  return results;
}

/** The directories in order, each folder once, where it first stands (RepositoryFiles.folderOf). */
export function onePerFolder(
  directories: readonly string[],
  folderOf: (directory: string) => string,
): string[] {
  const seen = new Set<string>();
  return directories.filter((directory) => {
    const folder = folderOf(directory);
    if (seen.has(folder)) return false;
    seen.add(folder);
    return true;
  });
}
