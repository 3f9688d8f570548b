/**
 * What `confbus check` prints: one line per violation, `file:line key: message`, then which environments and
 * contract it concerns. A value in `application.yml` breaks the same rule in every application and profile:
 * such repeats are one line naming the first environments and how many more, not 1,500 lines.
 */
import type { Violation } from '@confbus/contracts';
import type { CheckFailure, CheckResult } from './run-check.js';
import { DISPLAY_URI } from './run-check.js';
import type { Impact } from './impact.js';

/** Environments named on a line before "and N more". */
const NAMED_ENVIRONMENTS = 3;

export function violationLines(violations: readonly Violation[]): string[] {
  const groups = new Map<
    string,
    { where: Location; line: string; contract: string; environments: string[] }
  >();
  for (const violation of violations) {
    const where = locationOf(violation);
    const line = `${where.text} ${violation.key || '(configuration)'}: ${violation.message}`;
    const group = `${line}\u0000${violation.contract}`;
    const entry = groups.get(group) ?? { where, line, contract: violation.contract, environments: [] };
    entry.environments.push(`${violation.application}/${violation.profiles.join(',')}`);
    groups.set(group, entry);
  }
  return [...groups.values()]
    .sort((a, b) => a.where.path.localeCompare(b.where.path) || a.where.line - b.where.line)
    .map(({ line, contract, environments }) => {
      const named = environments.slice(0, NAMED_ENVIRONMENTS).join(', ');
      const more = environments.length - NAMED_ENVIRONMENTS;
      return `${line} (${named}${more > 0 ? ` and ${more} more` : ''}; contract ${contract})`;
    });
}

export function failureLines(failures: readonly CheckFailure[]): string[] {
  return failures.map(({ target, message }) =>
    target === undefined
      ? `error: ${message}`
      : `error: ${target.application}/${target.profiles.join(',')}: ${message}`,
  );
}

export function impactLines(impact: Impact): string[] {
  const lines = [`files changed: ${impact.files.length === 0 ? 'none' : impact.files.join(', ')}`];
  if (impact.environments.length === 0) lines.push('no application gets a different configuration');
  for (const { application, profiles, added, removed, changed, instances } of impact.environments) {
    const parts = [
      changed.length > 0 ? `changed ${changed.join(', ')}` : '',
      added.length > 0 ? `added ${added.join(', ')}` : '',
      removed.length > 0 ? `removed ${removed.join(', ')}` : '',
      instances === undefined
        ? ''
        : `reaches ${instances.length} running instance(s)${namedFirst(instances)}`,
    ].filter((part) => part !== '');
    lines.push(`${application}/${profiles.join(',')}: ${parts.join('; ')}`);
  }
  return lines;
}

/** `: a, b, c and 4 more`, or nothing for none. */
function namedFirst(names: readonly string[]): string {
  if (names.length === 0) return '';
  const more = names.length - NAMED_ENVIRONMENTS;
  return `: ${names.slice(0, NAMED_ENVIRONMENTS).join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
}

export function summaryLine(result: CheckResult, revision: string, millis: number): string {
  const applications = new Set(result.targets.map((t) => t.application)).size;
  const verdict =
    result.violations.length + result.failures.length === 0
      ? 'no violations'
      : `${result.violations.length} violation(s), ${result.failures.length} error(s)`;
  return (
    `confbus check: ${revision}: ${result.targets.length} environment(s) of ${applications} application(s), ` +
    `${result.contracts.length} contract(s): ${verdict} (${millis} ms)`
  );
}

interface Location {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** `shop.yml:7`: the repository path and line of the value; the contract's path for a key missing altogether. */
function locationOf(violation: Violation): Location {
  const origin = violation.origin;
  if (origin === undefined) return { path: violation.contract, line: 0, text: violation.contract };
  const path = origin.source
    .slice(DISPLAY_URI.length)
    .replace(/^\/+/, '')
    .replace(/ \(document #\d+\)$/, '');
  const line = origin.line ?? 0;
  return { path, line, text: origin.line === undefined ? path : `${path}:${line}` };
}
