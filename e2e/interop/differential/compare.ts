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
  listAndNotList: 'a key that is a list in one file and not in another',
  bigIntegers: 'integers beyond 2^53',
  nonFinite: 'infinity and NaN in JSON',
  integralFloats: 'floats with integral values',
  compoundKeys: 'a key that is both a value and a parent',
  quotedScalars: 'strings or typed values in rendered .yml and .json',
  origins: 'origins in the v2 media type',
} as const;

/**
 * Known differences in rendered text, each a rewrite applied to both answers: when the answers differed
 * and one of these made them closer, the difference is counted under its topic.
 */
const RENDERED_NORMALISERS: readonly { topic: string; rewrite: (text: string) => string }[] = [
  // confbus keeps integers beyond 2^53 as strings (quoted in YAML and JSON); Spring as BigInteger.
  { topic: TOPICS.bigIntegers, rewrite: (text) => text.replace(/(['"])(-?\d{16,})\1/g, '$2') },
  // Jackson writes non-finite doubles as strings; JSON.stringify as null.
  { topic: TOPICS.nonFinite, rewrite: (text) => text.replace(/"(-?Infinity|NaN)"/g, 'null') },
  // SnakeYAML reads `1e3` as a Double, printed `1000.0`; confbus has one number type.
  { topic: TOPICS.integralFloats, rewrite: (text) => text.replace(/\b(\d+)\.0\b/g, '$1') },
];

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
          add(
            valueTopic(value, other[key]),
            `${namesA[i]} ${key}: confbus ${j(value)}, Spring ${j(other[key])}`,
          );
        }
      }
    });
  }
  return differences;
}

const V2 = 'application/vnd.spring-cloud.config-server.v2+json';

/**
 * The v2 media type (Spring's clients ask for it): the `origin` (`line:column`) of each value, source by source,
 * where both answers list the same sources. Values themselves are compared by compareEnvironment.
 */
export async function compareOrigins(endpoints: Endpoints, path: string): Promise<Difference[]> {
  const [ours, theirs] = await Promise.all([
    fetchBoth(endpoints.confbus, path, V2),
    fetchBoth(endpoints.spring, path, V2),
  ]);
  if (ours.status !== 200 || theirs.status !== 200) return [];
  const a = JSON.parse(ours.text) as EnvironmentJson;
  const b = JSON.parse(theirs.text) as EnvironmentJson;
  if (a.propertySources.length !== b.propertySources.length) return [];
  const originOf = (value: unknown) =>
    value !== null && typeof value === 'object' && 'origin' in value
      ? (value as { origin: unknown }).origin
      : null;
  const differences: Difference[] = [];
  a.propertySources.forEach((source, i) => {
    const other = b.propertySources[i]!.source;
    for (const [key, value] of Object.entries(source.source)) {
      if (!(key in other) || originOf(value) === originOf(other[key])) continue;
      differences.push({
        topic: TOPICS.origins,
        request: path,
        detail: `${normaliseName(source.name, endpoints.repoAliases)} ${key}: confbus ${j(value)}, Spring ${j(other[key])}`,
      });
    }
  });
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
  const same = (a: string, b: string) =>
    format === 'json'
      ? isDeepStrictEqual(orderedEntries(JSON.parse(a)), orderedEntries(JSON.parse(b)))
      : a === b;
  if (same(ours.text, theirs.text)) return [];
  const detail = `confbus:\n${ours.text}\nSpring:\n${theirs.text}`;
  let a = ours.text;
  let b = theirs.text;
  const differences: Difference[] = [];
  for (const { topic, rewrite } of RENDERED_NORMALISERS) {
    const [nextA, nextB] = [rewrite(a), rewrite(b)];
    if (lineDifferences(nextA, nextB) < lineDifferences(a, b))
      differences.push({ topic, request: path, detail });
    [a, b] = [nextA, nextB];
  }
  if (!same(a, b)) differences.push({ topic: residualTopic(a, b, format), request: path, detail });
  return differences;
}

const DOTTED_KEY = /^[\s-]*"?[\w-]+\.[\w.-]+"?\s*:/;

/**
 * Names what is left after the normalisers: compound keys (a dotted key in a map, where a key is both a
 * value and a parent), or the same scalars quoted on one side only (a string on one side, a typed value on
 * the other); anything else is an unknown `rendered .<format>` difference.
 */
function residualTopic(a: string, b: string, format: string): string {
  const lines = (text: string) => text.split(/\n|,|\{/);
  const [linesA, linesB] = [lines(a), lines(b)];
  const onlyA = linesA.filter((line) => !linesB.includes(line));
  const onlyB = linesB.filter((line) => !linesA.includes(line));
  if ([...onlyA, ...onlyB].some((line) => DOTTED_KEY.test(line))) return TOPICS.compoundKeys;
  const unquote = (line: string) => line.replace(/'([^']*)'|"([^"]*)"/g, '$1$2');
  const [restA, restB] = [onlyA.map(unquote).sort(), onlyB.map(unquote).sort()];
  if (restA.length > 0 && isDeepStrictEqual(restA, restB)) return TOPICS.quotedScalars;
  return `rendered .${format}`;
}

/** How many lines differ (JSON is compared per value, so it is split at commas too). */
function lineDifferences(a: string, b: string): number {
  const split = (text: string) => text.split(/\n|,/);
  const [linesA, linesB] = [split(a), split(b)];
  let count = Math.abs(linesA.length - linesB.length);
  for (let i = 0; i < Math.min(linesA.length, linesB.length); i++) if (linesA[i] !== linesB[i]) count++;
  return count;
}

function valueTopic(ours: unknown, theirs: unknown): string {
  if (typeof ours === 'string' && typeof theirs === 'number' && /^-?\d{16,}$/.test(ours))
    return TOPICS.bigIntegers;
  if (ours === null && (theirs === 'Infinity' || theirs === '-Infinity' || theirs === 'NaN'))
    return TOPICS.nonFinite;
  return 'values';
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
  // Spring's PropertyNavigator casts to List when one file has `k[0]` and another `k` or `k.x`.
  const listCast = theirs === 500 && ours === 200 && /\.(yml|yaml|json)$/.test(path);
  return {
    topic: listCast ? TOPICS.listAndNotList : `status ${theirs} vs ${ours}`,
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
