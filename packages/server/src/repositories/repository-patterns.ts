import { type MatchWork, type SimpleMatcher, simpleMatcher } from '@confbus/core/internal';

/**
 * Which requests a named repository serves: Spring's `repos.<name>.pattern` list, matched against
 * `{application}/{profile}` with `*` wildcards (PatternMatchUtils.simpleMatch). As Spring normalises them, a
 * pattern without `/` matches any profile (`foo` → `foo/*`), and a pattern naming one profile also matches
 * requests that name more (`foo/dev` → `foo/dev,*`). The request's application name and profiles are matched in
 * time linear in their length whatever the pattern (core's simpleMatcher; a backtracking RegExp took 3 s to
 * match a 1,790-character name against `*-*-*` followed by `/prod`).
 */
export class RepositoryPatterns {
  private readonly matchers: SimpleMatcher[];

  constructor(readonly patterns: readonly string[]) {
    this.matchers = normalise(patterns).map(simpleMatcher);
  }

  /** Spring's `matches`: some requested profile (last first) matches `application/profile`. */
  matches(application: string, profiles: readonly string[], work?: MatchWork): boolean {
    const named = profiles.length === 0 ? ['default'] : profiles;
    return named.some((profile) => this.test(`${application}/${profile}`, work));
  }

  /**
   * Spring's PatternMatchingJGitEnvironmentRepository.findOne: the whole profile list must match too, or the
   * repository declines and the request goes on to the next one (`foo/db` declines `foo` with `dev,db`).
   */
  accepts(application: string, profilesText: string, work?: MatchWork): boolean {
    return this.test(`${application}/${profilesText}`, work);
  }

  private test(text: string, work: MatchWork | undefined): boolean {
    return this.matchers.some((matcher) => matcher(text, work));
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
