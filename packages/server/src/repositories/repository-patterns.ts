/**
 * Which requests a named repository serves: Spring's `repos.<name>.pattern` list, matched against
 * `{application}/{profile}` with `*` wildcards (PatternMatchUtils.simpleMatch). As Spring normalises them, a
 * pattern without `/` matches any profile (`foo` → `foo/*`), and a pattern naming one profile also matches
 * requests that name more (`foo/dev` → `foo/dev,*`).
 */
export class RepositoryPatterns {
  private readonly expressions: RegExp[];

  constructor(readonly patterns: readonly string[]) {
    this.expressions = normalise(patterns).map(wildcardExpression);
  }

  /** Spring's `matches`: some requested profile (last first) matches `application/profile`. */
  matches(application: string, profiles: readonly string[]): boolean {
    const named = profiles.length === 0 ? ['default'] : profiles;
    return named.some((profile) => this.test(`${application}/${profile}`));
  }

  /**
   * Spring's PatternMatchingJGitEnvironmentRepository.findOne: the whole profile list must match too, or the
   * repository declines and the request goes on to the next one (`foo/db` declines `foo` with `dev,db`).
   */
  accepts(application: string, profilesText: string): boolean {
    return this.test(`${application}/${profilesText}`);
  }

  private test(text: string): boolean {
    return this.expressions.some((expression) => expression.test(text));
  }
}

function normalise(patterns: readonly string[]): string[] {
  const out: string[] = [];
  const otherProfiles: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.includes('/')) out.push(`${pattern}/*`);
    if (!pattern.endsWith('*')) otherProfiles.push(`${pattern},*`);
    out.push(pattern);
  }
  return [...new Set([...out, ...otherProfiles])];
}

/** `*` matches any run of characters (slashes included), everything else literally, as simpleMatch does. */
function wildcardExpression(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}
