/**
 * Which (application, profiles) environments a repository's contracts cover, from the repository's file names,
 * since an offline check has no requests to go by. Applications: every one with a contract, and, when
 * `application.schema.json` exists, every application that has a configuration file of its own. Profiles:
 * `default` plus every profile a file name carries (`application-{profile}.yml`, `{application}-{profile}.yml`),
 * each checked on its own, as a client started with that one profile would ask for it; or exactly the profiles
 * given. A profile only named inside a document (`spring.config.activate.on-profile`) is checked when given.
 */
import { isConfigFileName } from '@confbus/core';
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
}

const DEFAULT_PROFILE = 'default';

export function checkTargets(
  paths: readonly string[],
  contracts: readonly Contract[],
  options: TargetOptions = {},
): CheckTarget[] {
  const own = new Set(contracts.map((c) => c.application).filter((name) => name !== EVERY_APPLICATION));
  const everyApplication = contracts.some((c) => c.application === EVERY_APPLICATION);
  const stems = new Set(paths.filter(isConfigPath).map(stemOf));
  const profilesOf = new Map<string, Set<string>>();
  const common = new Set<string>();
  for (const stem of [...stems].sort()) {
    if (stem === EVERY_APPLICATION) continue;
    if (stem.startsWith(`${EVERY_APPLICATION}-`)) {
      common.add(stem.slice(EVERY_APPLICATION.length + 1));
      continue;
    }
    const [application, profile] = splitStem(stem, stems, own);
    const profiles = profilesOf.get(application) ?? new Set<string>();
    if (profile !== undefined) profiles.add(profile);
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
        ...[...new Set([...common, ...(profilesOf.get(application) ?? [])])].sort(),
      ];
      return profiles.map((profile) => ({ application, profiles: [profile] }));
    });
}

/** Configuration files Spring would read; nothing under a hidden directory (`.confbus/`, `.github/`). */
function isConfigPath(path: string): boolean {
  return isConfigFileName(path) && !path.split('/').some((part) => part.startsWith('.'));
}

function stemOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return name.slice(0, name.lastIndexOf('.'));
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
