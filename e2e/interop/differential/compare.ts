/**
 * Asks confbus and the real Spring Cloud Config Server the same questions and lists where the answers
 * differ, each difference under a topic: the topic of a row of docs/coming-from-spring.md's table
 * (deliberate) or of its "Not yet matched" list, which the test reads. A difference is filed under a
 * deliberate topic only when its cause is shown to be that topic's; anything else gets a topic of its own,
 * which no page lists, so it fails the test. Property-source names embed the repository URI (and Spring's
 * names its working copy), so both are replaced by `<repo>` first.
 */
import { isDeepStrictEqual } from 'node:util';
import { sourceKeysOf } from '@confbus/testkit/environment-keys';
import { waitFor } from '@confbus/testkit/wait-for';
import {
  onlyCompoundKeysDiffer,
  onlyNumberKeysMoved,
  parseExact,
  parseExactInOrder,
} from './rendered-keys.js';

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
  /** The Spring server's log so far (it grows): where it says why it answered 500. */
  readonly springLog: readonly string[];
  /** The backend is JDBC or Redis, whose `version` confbus makes a generation of the data (TOPICS.dataVersion). */
  readonly dataVersions?: boolean;
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
  compoundKeys: 'a key that is both a value and a parent',
  origins: 'origins in the v2 media type',
  dotDot: '`..` inside a name or profile',
  validateOff: '`spring.profiles.validate=false`',
  dataVersion: '`version` of a JDBC or Redis environment',
  numberKeys: 'keys that are numbers (`2`, `10`)',
  cloneFailed: 'a Git repository that cannot be cloned',
} as const;

export async function compareEnvironment(endpoints: Endpoints, path: string): Promise<Difference[]> {
  const logMark = endpoints.springLog.length;
  const [ours, theirs] = await Promise.all([
    fetchBoth(endpoints.confbus, path, 'application/json'),
    fetchBoth(endpoints.spring, path, 'application/json'),
  ]);
  if (ours.status !== theirs.status) {
    return [statusDifference(path, ours, theirs, await profileStatusTopic(endpoints, logMark, ours, theirs))];
  }
  if (ours.status !== 200) return [];
  const a = parseExact(ours.text) as EnvironmentJson;
  const b = parseExact(theirs.text) as EnvironmentJson;
  const differences: Difference[] = [];
  const add = (topic: string, detail: string) => differences.push({ topic, request: path, detail });
  for (const field of ['name', 'profiles', 'label', 'version'] as const) {
    if (isDeepStrictEqual(a[field], b[field])) continue;
    const generation =
      field === 'version' &&
      endpoints.dataVersions === true &&
      b.version === null &&
      /^[0-9a-f]{40}(,[0-9a-f]{40})*$/.test(a.version ?? '');
    add(generation ? TOPICS.dataVersion : `field ${field}`, `confbus ${j(a[field])}, Spring ${j(b[field])}`);
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
    // Keys as the answers list them (objects would move keys that are numbers first on both sides alike).
    const keysA = sourceKeysOf(parseExactInOrder(ours.text));
    const keysB = sourceKeysOf(parseExactInOrder(theirs.text));
    a.propertySources.forEach((source, i) => {
      const other = b.propertySources[i]!.source;
      if (!isDeepStrictEqual(keysA[i], keysB[i])) {
        add('key order', `${namesA[i]}: confbus ${j(keysA[i])}, Spring ${j(keysB[i])}`);
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
  const a = parseExact(ours.text) as EnvironmentJson;
  const b = parseExact(theirs.text) as EnvironmentJson;
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

/** Compares a rendered file (`.yml`, `.properties`, `.json`) byte for byte. */
export async function compareRendered(endpoints: Endpoints, path: string): Promise<Difference[]> {
  const logMark = endpoints.springLog.length;
  const [ours, theirs] = await Promise.all([
    fetchBoth(endpoints.confbus, path),
    fetchBoth(endpoints.spring, path),
  ]);
  if (ours.status !== theirs.status) {
    const listCast =
      theirs.status === 500 &&
      ours.status === 200 &&
      /\.(yml|yaml|json)$/.test(path) &&
      (await springLoggedListCast(endpoints.springLog, logMark));
    const topic = listCast
      ? TOPICS.listAndNotList
      : await profileStatusTopic(endpoints, logMark, ours, theirs);
    return [statusDifference(path, ours, theirs, topic)];
  }
  if (ours.status !== 200 || ours.text === theirs.text) return [];
  const format = path.slice(path.lastIndexOf('.') + 1);
  // Keys that are numbers move the same way in the read-back objects as in confbus's: checked first, so
  // onlyCompoundKeysDiffer (which reads objects too) does not take them for its own.
  const numbers = onlyNumberKeysMoved(ours.text, theirs.text, format);
  const compound =
    !numbers && format !== 'properties' && onlyCompoundKeysDiffer(ours.text, theirs.text, format);
  return [
    {
      topic: numbers ? TOPICS.numberKeys : compound ? TOPICS.compoundKeys : `rendered .${format}`,
      request: path,
      detail: `confbus:\n${ours.text}\nSpring:\n${theirs.text}`,
    },
  ];
}

/**
 * Whether Spring's 500 came from PropertyNavigator casting a map or a value to a list (a key that is a list in
 * one file and not in another): its log shows the ClassCastException, thrown from PropertyNavigator, after
 * `mark` (requests to Spring are made one at a time, so what it logs from there on is this request's).
 */
async function springLoggedListCast(log: readonly string[], mark: number): Promise<boolean> {
  const found = () => {
    const lines = log.slice(mark);
    const cast = lines.findIndex((line) =>
      /^java\.lang\.ClassCastException: .* cannot be cast to .*List/.test(line),
    );
    return cast !== -1 && /EnvironmentController\$PropertyNavigator\.set\w+Value/.test(lines[cast + 1] ?? '');
  };
  try {
    return await waitFor('the ClassCastException in the Spring log', found, { timeoutMs: 10_000 });
  } catch {
    return false;
  }
}

/**
 * The topic of a status difference, when its cause is shown: a repository never cloned (TOPICS.cloneFailed);
 * over a requested profile, confbus's 400 naming
 * `..` where Spring served the profile (TOPICS.dotDot); Spring's 500 from Spring Boot's ProfilesValidator (its
 * Git and native backends check profiles in the context they build, with the controller's check switched off)
 * where confbus served it (TOPICS.validateOff).
 */
async function profileStatusTopic(
  endpoints: Endpoints,
  mark: number,
  ours: { status: number; text: string },
  theirs: { status: number; text: string },
): Promise<string | undefined> {
  if (ours.status === 400 && theirs.status === 200 && /'\.\.' is not allowed/.test(ours.text))
    return TOPICS.dotDot;
  // Spring's NoSuchRepositoryException (404) where confbus says the repository is unavailable, never cloned.
  if (
    ours.status === 503 &&
    theirs.status === 404 &&
    /CONFBUS_REPOSITORY_UNAVAILABLE/.test(ours.text) &&
    /there is no local copy/.test(ours.text)
  )
    return TOPICS.cloneFailed;
  if (ours.status !== 200 || theirs.status !== 500) return undefined;
  const found = () =>
    endpoints.springLog.slice(mark).some((line) => /ProfilesValidator\.validate/.test(line));
  try {
    await waitFor("Spring Boot's ProfilesValidator in the Spring log", found, { timeoutMs: 10_000 });
    return TOPICS.validateOff;
  } catch {
    return undefined;
  }
}

async function fetchBoth(
  base: string,
  path: string,
  accept?: string,
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}${path}`, { headers: accept ? { accept } : {} });
  return { status: response.status, text: await response.text() };
}

function statusDifference(
  path: string,
  ours: { status: number; text: string },
  theirs: { status: number; text: string },
  topic: string | undefined,
): Difference {
  return {
    topic: topic ?? `status ${theirs.status} vs ${ours.status}`,
    request: path,
    detail: `confbus ${ours.status} ${ours.text.slice(0, 300)}\nSpring ${theirs.status} ${theirs.text.slice(0, 300)}`,
  };
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
