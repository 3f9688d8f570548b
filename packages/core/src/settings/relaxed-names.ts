/**
 * Spring Boot's relaxed binding: `spring.cloud.config.server.git.search-paths`, `...searchPaths`,
 * `...search_paths` and `SPRING_CLOUD_CONFIG_SERVER_GIT_SEARCHPATHS` all name one setting, and a list may be
 * written element by element (`search-paths[0]`, `SPRING_..._SEARCHPATHS_0`).
 * Boot's rule for environment variables is: replace `.` with `_`, drop `-`, upper-case. We also accept `-`
 * written as `_` (`..._DEFAULT_LABEL`), which Boot does not, because people write it that way and nothing
 * else could be meant for a key we know.
 */

/** The key as stored for a setting confbus does not declare (client properties keep their own spelling). */
export function canonicalKey(key: string): string {
  return key.trim().toLowerCase();
}

/**
 * Spring's "uniform" form, which relaxed binding compares: lower case, `-` and `_` dropped inside each
 * element, dots and `[index]` kept. `searchPaths[0]`, `search-paths[0]` and `search_paths[0]` agree.
 */
export function uniformKey(key: string): string {
  return key
    .trim()
    .split(/(\[[^\]]*\])/)
    .map((part) => (part.startsWith('[') ? part : part.toLowerCase().replace(/[-_]/g, '')))
    .join('');
}

/** A key split into its list base and index: `a.b[2]` → `{ base: 'a.b', index: 2 }`. */
export function splitIndex(key: string): { base: string; index: number } | undefined {
  const match = /^(.*)\[(\d+)\]$/.exec(key.trim());
  if (match?.[1] === undefined) return undefined;
  return { base: match[1], index: Number(match[2]) };
}

/** The environment variable names that may carry `key`, most Spring-like first. */
export function environmentNamesFor(key: string): string[] {
  // An index is an element of its own, joined by one `_` like the others (Boot's SystemEnvironmentPropertyMapper):
  // `a.b[0].c` → `A_B_0_C`, `features[0]` → `FEATURES_0`.
  const upper = key.toUpperCase().replace(/\[(\d+)\]/g, '.$1');
  const boot = upper.replace(/\./g, '_').replace(/-/g, '');
  const dashed = upper.replace(/[.-]/g, '_');
  return boot === dashed ? [boot] : [boot, dashed];
}

/**
 * How an environment variable name compares with a key: every separator dropped, lower case, a trailing
 * `_<n>` (or `_<n>_`) read as a list index. `SPRING_CLOUD_CONFIG_SERVER_GIT_SEARCH_PATHS_0` →
 * `{ flat: 'springcloudconfigservergitsearchpaths', index: 0 }`.
 */
export function environmentFlatName(name: string): { flat: string; index?: number } {
  const match = /^(.*?)_(\d+)_?$/.exec(name);
  if (match?.[1] !== undefined) return { flat: flatKey(match[1]), index: Number(match[2]) };
  return { flat: flatKey(name) };
}

/** A key with every separator removed, for comparing against environment variable names. */
export function flatKey(key: string): string {
  return key.toLowerCase().replace(/[-_.]/g, '');
}

/** A loose form for comparing keys regardless of dashes and case, used for "did you mean". */
export function looseKey(key: string): string {
  return key.toLowerCase().replace(/[-_]/g, '');
}
