/**
 * Who a request acts as, and what they may do (docs/security.md). Pure: no HTTP here.
 *
 * Two independent grants:
 *  - applications (with optional profiles and labels): which configuration a client may read — environments,
 *    file renderings, plain-text files, the watch stream, `/decrypt/{application}/…`. The shared `application`
 *    name is served to every caller that may read at least one application (its files are in every
 *    application's environment anyway); a caller allowed no application reads nothing.
 *  - roles, for people and tools: viewer (console and actuator reads: values always masked), operator (viewer
 *    plus refreshes, bus commands, /monitor, console actions, holds, rollouts), admin (operator plus /encrypt,
 *    /decrypt, settings).
 */
import { type SimpleMatcher, simpleMatcher } from '@confbus/core/internal';

export const ROLES = ['viewer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * What a route requires (a route's `config.access`): `public` answers anyone, `authenticated` anyone with
 * valid credentials (the route checks applications itself), a role that role or a higher one.
 */
export type RouteAccess = 'public' | 'authenticated' | Role;

/** The application everyone reads: `application.yml`, `application-{profile}.yml`. */
export const SHARED_APPLICATION = 'application';

/** What a read names: the applications, profiles and label of an environment request. */
export interface ReadTarget {
  readonly applications: readonly string[];
  readonly profiles: readonly string[];
  /** null: the repository's default label. */
  readonly label: string | null;
}

export interface PrincipalGrants {
  readonly applications: readonly string[];
  /** Empty: any profile. */
  readonly profiles: readonly string[];
  /** Empty: any label. */
  readonly labels: readonly string[];
  readonly roles: readonly Role[];
}

const rank = (role: Role): number => ROLES.indexOf(role);

/** Patterns compiled once; a list that holds `*` alone matches everything without running a matcher. */
class PatternSet {
  private readonly matchers: readonly SimpleMatcher[];
  readonly any: boolean;
  constructor(readonly patterns: readonly string[]) {
    this.any = patterns.includes('*');
    this.matchers = patterns.map(simpleMatcher);
  }
  matches(text: string): boolean {
    if (this.any) return true;
    for (const matcher of this.matchers) if (matcher(text)) return true;
    return false;
  }
}

export class Principal {
  private readonly applications: PatternSet;
  private readonly profiles: PatternSet | undefined;
  private readonly labels: PatternSet | undefined;
  /** The highest role held, -1 for none. */
  private readonly roleRank: number;
  /**
   * Decisions per target object ('' for allowed): the routes and the fast path hand over the same validated
   * request object for a URL every time, so a repeated request pays a WeakMap lookup, not the pattern matching.
   */
  private readonly decided = new WeakMap<ReadTarget, string>();

  constructor(
    /** The user name (or the client's name, for a token): shown in the audit log, never a secret. */
    readonly name: string,
    /** Where the grants are configured, named in a 403's message. */
    readonly settingPrefix: string,
    grants: PrincipalGrants,
  ) {
    this.applications = new PatternSet(grants.applications);
    this.profiles = grants.profiles.length > 0 ? new PatternSet(grants.profiles) : undefined;
    this.labels = grants.labels.length > 0 ? new PatternSet(grants.labels) : undefined;
    this.roleRank = Math.max(-1, ...grants.roles.map(rank));
  }

  get roles(): Role[] {
    return ROLES.filter((role) => rank(role) <= this.roleRank);
  }

  has(access: RouteAccess): boolean {
    if (access === 'public' || access === 'authenticated') return true;
    return rank(access) <= this.roleRank;
  }

  /** Why this principal may not read `target`, or undefined when it may. Every name and profile is checked. */
  refusalToRead(target: ReadTarget): string | undefined {
    let decision = this.decided.get(target);
    if (decision === undefined) {
      decision = this.decide(target) ?? '';
      this.decided.set(target, decision);
    }
    return decision === '' ? undefined : decision;
  }

  private decide(target: ReadTarget): string | undefined {
    if (this.applications.patterns.length === 0)
      return `'${this.name}' may read no application (${this.settingPrefix}.applications is empty)`;
    for (const application of target.applications) {
      if (application !== SHARED_APPLICATION && !this.applications.matches(application))
        return `'${this.name}' may not read application '${application}' (${this.settingPrefix}.applications)`;
    }
    if (this.profiles) {
      for (const profile of target.profiles)
        if (!this.profiles.matches(profile))
          return `'${this.name}' may not read profile '${profile}' (${this.settingPrefix}.profiles)`;
    }
    if (this.labels && target.label !== null && !this.labels.matches(target.label))
      return `'${this.name}' may not read label '${target.label}' (${this.settingPrefix}.labels)`;
    return undefined;
  }

  mayRead(target: ReadTarget): boolean {
    return this.refusalToRead(target) === undefined;
  }
}

/** Every application and every role: the one `spring.security.user`, and everyone when no credential is set. */
export const ALL_GRANTS: PrincipalGrants = {
  applications: ['*'],
  profiles: [],
  labels: [],
  roles: ['admin'],
};

/** Who a request is when the server has no credentials configured: anyone may do anything (as before). */
export const ANONYMOUS_WITHOUT_SECURITY = new Principal('anonymous', 'spring.security.user', ALL_GRANTS);
