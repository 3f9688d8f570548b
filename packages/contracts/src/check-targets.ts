/**
 * Which (application, profiles) environments a repository's contracts cover, from the repository's file names,
 * since an offline check has no requests to go by. Applications: every one with a contract, and, when
 * `application.schema.json` exists, every application that has a configuration file of its own. Profiles:
 * `default` plus every profile a file name carries (`application-{profile}.yml`, `{application}-{profile}.yml`),
 * and every profile a document activates on (`spring.config.activate.on-profile`), each checked on its own, as a
 * client started with that one profile would ask for it; or exactly the profiles given.
 */
import { type ProfileExpression, type ProfileNode, isConfigFileName } from '@confbus/core';
import { type Contract, EVERY_APPLICATION } from './contract.js';

export interface CheckTarget {
  readonly application: string;
  readonly profiles: readonly string[];
}

export interface TargetOptions {
  /** Profiles to check instead of those the file names carry (each on its own). */
  readonly profiles?: readonly string[];
  /** Applications to check instead of those found (still only with a contract). */
  readonly applications?: readonly string[];
  /**
   * The profiles each file's documents activate on (path → names, see profilesActivating): those of an
   * `application*` file are every application's, those of `shop*.yml` shop's.
   */
  readonly documentProfiles?: ReadonlyMap<string, readonly string[]>;
}

/**
 * The profiles an activation names positively (`prod`, `prod & eu` → prod, eu; `!dev` names none): each is a
 * profile under which the document may apply.
 */
export function profilesActivating(activation: ProfileExpression): string[] {
  const names = new Set<string>();
  const walk = (node: ProfileNode): void => {
    if (node.kind === 'profile') names.add(node.name);
    else if (node.kind !== 'not') node.operands.forEach(walk);
  };
  activation.anyOf.forEach(walk);
  return [...names];
}

const DEFAULT_PROFILE = 'default';

export function checkTargets(
  paths: readonly string[],
  contracts: readonly Contract[],
  options: TargetOptions = {},
): CheckTarget[] {
  const own = new Set(contracts.map((c) => c.application).filter((name) => name !== EVERY_APPLICATION));
  const everyApplication = contracts.some((c) => c.application === EVERY_APPLICATION);
  const configPaths = paths.filter(isConfigPath);
  const stems = new Set(configPaths.map(stemOf));
  const profilesOf = new Map<string, Set<string>>();
  const common = new Set<string>();
  const inDocuments = (path: string) => options.documentProfiles?.get(path) ?? [];
  for (const path of [...configPaths].sort()) {
    const stem = stemOf(path);
    if (stem === EVERY_APPLICATION || stem.startsWith(`${EVERY_APPLICATION}-`)) {
      if (stem !== EVERY_APPLICATION) common.add(stem.slice(EVERY_APPLICATION.length + 1));
      for (const profile of inDocuments(path)) common.add(profile);
      continue;
    }
    const [application, profile] = splitStem(stem, stems, own);
    const profiles = profilesOf.get(application) ?? new Set<string>();
    if (profile !== undefined) profiles.add(profile);
    for (const named of inDocuments(path)) profiles.add(named);
    profilesOf.set(application, profiles);
  }
  const found = everyApplication ? [...profilesOf.keys()] : [];
  const applications = options.applications ?? [...new Set([...own, ...found])];
  return applications
    .filter((application) => everyApplication || own.has(application))
    .sort()
    .flatMap((application) => {
      const profiles = options.profiles ?? [
        DEFAULT_PROFILE,
        ...[...new Set([...common, ...(profilesOf.get(application) ?? [])])]
          .filter((profile) => profile !== DEFAULT_PROFILE)
          .sort(),
      ];
      return profiles.map((profile) => ({ application, profiles: [profile] }));
    });
}

/** Configuration files Spring would read; nothing under a hidden directory (`.confbus/`, `.github/`). */
export function isConfigPath(path: string): boolean {
  return isConfigFileName(path) && !path.split('/').some((part) => part.startsWith('.'));
}

/** A file's name without its directory and extension: `config/shop-dev.yml` is `shop-dev`. */
export function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
}

/**
 * `shop-dev` is application `shop`, profile `dev`, when `shop` is an application (a contract, or a file of its
 * own); otherwise an application named `shop-dev`. The longest such prefix wins (`my-app-dev` with `my-app`).
 */
function splitStem(stem: string, stems: ReadonlySet<string>, own: ReadonlySet<string>): [string, string?] {
  for (let dash = stem.lastIndexOf('-'); dash > 0; dash = stem.lastIndexOf('-', dash - 1)) {
    const prefix = stem.slice(0, dash);
    if (own.has(prefix) || stems.has(prefix)) return [prefix, stem.slice(dash + 1)];
  }
  return [stem];
}
