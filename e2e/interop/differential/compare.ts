/**
 * Asks confbus and the real Spring Cloud Config Server the same questions and lists where the answers
 * differ, each difference under a topic: the topic of a row of docs/coming-from-spring.md's table
 * (deliberate) or of its "Not yet matched" list, which the test reads. Property-source names embed the
 * repository URI (and Spring's names its working copy), so both are replaced by `<repo>` first.
 */
import { isDeepStrictEqual } from 'node:util';

export interface Difference {
  readonly topic: string;
  readonly request: string;
  readonly detail: string;
}

export interface Endpoints {
  readonly confbus: string;
  readonly spring: string;
  /** Strings that stand for the repository in property-source names (URIs, paths), longest first. */
  readonly repoAliases: readonly string[];
}

interface EnvironmentJson {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  state: string | null;
  propertySources: { name: string; source: Record<string, unknown> }[];
}

/** Topics; each must match a row of the table or an entry of "Not yet matched" in coming-from-spring.md. */
export const TOPICS = {
  state: '`state`',
  multiDocumentNames: 'multi-document source names',
} as const;

export async function compareEnvironment(endpoints: Endpoints, path: string): Promise<Difference[]> {
  const [ours, theirs] = await Promise.all([
    fetchBoth(endpoints.confbus, path, 'application/json'),
    fetchBoth(endpoints.spring, path, 'application/json'),
  ]);
  if (ours.status !== theirs.status) {
    return [statusDifference(path, ours.status, theirs.status, ours.text, theirs.text)];
  }
  if (ours.status !== 200) return [];
  const a = JSON.parse(ours.text) as EnvironmentJson;
  const b = JSON.parse(theirs.text) as EnvironmentJson;
  const differences: Difference[] = [];
  const add = (topic: string, detail: string) => differences.push({ topic, request: path, detail });
  for (const field of ['name', 'profiles', 'label', 'version'] as const) {
    if (!isDeepStrictEqual(a[field], b[field]))
      add(`field ${field}`, `confbus ${j(a[field])}, Spring ${j(b[field])}`);
  }
  if (a.state !== b.state) add(TOPICS.state, `confbus ${j(a.state)}, Spring ${j(b.state)}`);
  const namesA = a.propertySources.map((s) => normaliseName(s.name, endpoints.repoAliases));
  const namesB = b.propertySources.map((s) => normaliseName(s.name, endpoints.repoAliases));
  if (!isDeepStrictEqual(namesA, namesB)) {
    const onlyDocumentNames =
      namesA.length === namesB.length &&
      namesA.every((name, i) => name === namesB[i] || (isDocumentName(name) && isDocumentName(namesB[i]!)));
    add(
      onlyDocumentNames ? TOPICS.multiDocumentNames : 'source names',
      `confbus ${j(namesA)}\nSpring  ${j(namesB)}`,
    );
  }
  // Sources pair up by position when the lists are as long; otherwise the names difference says it all.
  if (a.propertySources.length === b.propertySources.length) {
    a.propertySources.forEach((source, i) => {
      const other = b.propertySources[i]!.source;
      if (!isDeepStrictEqual(Object.keys(source.source), Object.keys(other))) {
        add(
          'key order',
          `${namesA[i]}: confbus ${j(Object.keys(source.source))}, Spring ${j(Object.keys(other))}`,
        );
      }
      for (const [key, value] of Object.entries(source.source)) {
        if (key in other && !isDeepStrictEqual(value, other[key])) {
          add('values', `${namesA[i]} ${key}: confbus ${j(value)}, Spring ${j(other[key])}`);
        }
      }
    });
  }
  return differences;
}

/** Compares a rendered file (`.yml`, `.properties`, `.json`): text for the first two, JSON values for the last. */
export async function compareRendered(endpoints: Endpoints, path: string): Promise<Difference[]> {
  const [ours, theirs] = await Promise.all([
    fetchBoth(endpoints.confbus, path),
    fetchBoth(endpoints.spring, path),
  ]);
  if (ours.status !== theirs.status) {
    return [statusDifference(path, ours.status, theirs.status, ours.text, theirs.text)];
  }
  if (ours.status !== 200) return [];
  const format = path.slice(path.lastIndexOf('.') + 1);
  const same =
    format === 'json'
      ? isDeepStrictEqual(orderedEntries(JSON.parse(ours.text)), orderedEntries(JSON.parse(theirs.text)))
      : ours.text === theirs.text;
  if (same) return [];
  return [
    {
      topic: `rendered .${format}`,
      request: path,
      detail: `confbus:\n${ours.text}\nSpring:\n${theirs.text}`,
    },
  ];
}

async function fetchBoth(
  base: string,
  path: string,
  accept?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}${path}`, { headers: accept ? { accept } : {} });
  return { status: response.status, text: await response.text() };
}

function statusDifference(path: string, ours: number, theirs: number, a: string, b: string): Difference {
  return {
    topic: `status ${theirs} vs ${ours}`,
    request: path,
    detail: `confbus ${ours} ${a.slice(0, 300)}\nSpring ${theirs} ${b.slice(0, 300)}`,
  };
}

/** Keys in order, recursively: JSON equality that also holds the order of object keys. */
function orderedEntries(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(orderedEntries);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).map(([key, inner]) => [key, orderedEntries(inner)]);
  }
  return value;
}

export function normaliseName(name: string, aliases: readonly string[]): string {
  let out = name;
  for (const alias of aliases) out = out.split(alias).join('<repo>');
  return out.replace(/<repo>\/+/g, '<repo>/');
}

function isDocumentName(name: string): boolean {
  return /\(document #\d+\)$/.test(name);
}

function j(value: unknown): string {
  return JSON.stringify(value);
}
