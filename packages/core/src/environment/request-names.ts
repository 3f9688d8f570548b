/**
 * Decoding and validation of the application, profile and label parts of a request, after
 * Spring's `Environment.normalize` and `PathUtils`: `(_)` stands for `/`, names and profiles
 * are comma lists, and only a safe character set is accepted so that names cannot escape the
 * repository (`..`, a leading `/`) or smuggle control characters into file names and logs.
 */

export const MAX_NAME_LENGTH = 200;
export const MAX_PROFILES = 32;

// Letters and digits of any script (Spring accepts `/app/entwicklung-ü`, and so do file systems and git),
// with combining marks; never separators, spaces or controls.
const SAFE_NAME = /^[\p{L}\p{N}](?:[\p{L}\p{N}\p{M}._+@-]*[\p{L}\p{N}\p{M}])?$/u;
// C0, DEL and C1 control characters.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Spring clients write `/` as `(_)` in names and labels. */
export function decodeSpringSegment(segment: string): string {
  return segment.replaceAll('(_)', '/');
}

/** `foo,bar` → `['foo', 'bar']`; blanks are dropped. */
export function parseApplications(name: string): string[] {
  return splitList(name);
}

/** `dev,db` → `['dev', 'db']`; an empty value means Spring's `default` profile. */
export function parseProfiles(profiles: string): string[] {
  const list = splitList(profiles);
  return list.length === 0 ? ['default'] : list;
}

/**
 * An error message naming what is wrong, or undefined when the application name is acceptable.
 * A comma list (`foo,bar`) is accepted when every entry is.
 */
export function validateApplicationName(name: string): string | undefined {
  return validateList('application name', name, true);
}

/**
 * How profiles are checked. Always: not empty, not too long, no control character, no `/`, `\\` or `..` (a profile
 * becomes part of file names and paths). With `springRules` (Spring's `spring.profiles.validate`, on by default),
 * also Spring Boot's profile rules as Spring Cloud Config 5.0.3+ applies them to requests (PathUtils): letters,
 * digits and `-_.+@`, starting and ending with a letter or digit, and no empty entry in a list (`dev,,db`).
 */
export interface ProfileRules {
  readonly springRules: boolean;
}

const SPRING_PROFILE_RULES: ProfileRules = { springRules: true };

/**
 * An error message naming what is wrong, or undefined when the profile is acceptable.
 * A comma list (`dev,db`) is accepted when every entry is and there are at most MAX_PROFILES.
 */
export function validateProfile(
  profile: string,
  rules: ProfileRules = SPRING_PROFILE_RULES,
): string | undefined {
  const count = splitList(profile).length;
  if (count > MAX_PROFILES) return `Too many profiles: ${count} (at most ${MAX_PROFILES})`;
  if (rules.springRules && profile.includes(',')) {
    // Spring splits the list as it is (commaDelimitedListToSet): a blank or padded entry is a bad profile.
    for (const entry of profile.split(',')) {
      const problem = validateName('profile', entry, true);
      if (problem !== undefined) return `${problem} (in ${JSON.stringify(profile)})`;
    }
    return undefined;
  }
  return validateList('profile', profile, false, rules.springRules);
}

/** Validates a parsed profile list: at most MAX_PROFILES entries, each a valid profile. */
export function validateProfiles(
  profiles: readonly string[],
  rules: ProfileRules = SPRING_PROFILE_RULES,
): string | undefined {
  if (profiles.length > MAX_PROFILES) {
    return `Too many profiles: ${profiles.length} (at most ${MAX_PROFILES})`;
  }
  for (const profile of profiles) {
    const problem = validateName('profile', profile, rules.springRules);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/**
 * With `nested`, an entry may be a path of names (`foo/spam`, from Spring's `foo(_)spam`): Spring then reads
 * `foo/spam.yml`, `foo/spam-dev.yml` below each search directory. Every segment must be a safe name, so a path
 * can neither climb (`..`) nor start at the root.
 */
function validateList(what: string, value: string, nested = false, springRules = true): string | undefined {
  const entries = value.includes(',') ? splitList(value) : [value];
  if (entries.length === 0) return `Invalid ${what}: must not be empty`;
  for (const entry of entries) {
    const segments = nested && entry.includes('/') ? entry.split('/') : [entry];
    for (const segment of segments) {
      const problem = validateName(what, segment, springRules);
      if (problem !== undefined)
        return segments.length > 1 ? `${problem} (in ${JSON.stringify(entry)})` : problem;
    }
  }
  return undefined;
}

/** `springRules`: the character rules on top of the safety checks every name gets. */
function validateName(what: string, value: string, springRules: boolean): string | undefined {
  if (value === '') return `Invalid ${what}: must not be empty`;
  if (value.length > MAX_NAME_LENGTH) {
    return `Invalid ${what}: longer than ${MAX_NAME_LENGTH} characters`;
  }
  // Quote with JSON so control characters never reach a log or a response raw.
  const shown = JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value);
  if (CONTROL.test(value)) return `Invalid ${what} ${shown}: control characters are not allowed`;
  if (value.includes('/') || value.includes('\\')) return `Invalid ${what} ${shown}: '/' is not allowed`;
  if (value.includes('..')) return `Invalid ${what} ${shown}: '..' is not allowed`;
  if (springRules && !SAFE_NAME.test(value)) {
    return `Invalid ${what} ${shown}: use letters, digits and -_.+@, starting and ending with a letter or digit`;
  }
  return undefined;
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
