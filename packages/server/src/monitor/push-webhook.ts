/**
 * Which config files a push webhook says changed, following spring-cloud-config-monitor's extractors and their
 * order: GitHub, then the simple `path` body, then GitLab / Gitee / Gogs / Gitea / Bitbucket. Hosts that do not
 * list files (Gitea, Bitbucket) broadcast as a change of `application.yml`, as Spring does.
 */
import { WebhookError } from './webhook-error.js';
import { firstHeader, hasText, type WebhookHeaders } from './webhook-headers.js';

export type WebhookHost =
  | 'github'
  | 'gitlab'
  | 'bitbucket-cloud'
  | 'bitbucket-server'
  | 'gitea'
  | 'gogs'
  | 'gitee'
  | 'form'
  | 'simple'
  | 'none';

export interface WebhookPush {
  readonly host: WebhookHost;
  readonly paths: string[];
  /** The commit the host says was pushed (see pushedCommit), when it sent one. */
  readonly commit?: string | undefined;
}

export interface PushWebhookInput {
  headers: WebhookHeaders;
  /** Parsed JSON, or the parsed form for application/x-www-form-urlencoded. */
  body: unknown;
  contentType: string;
}

/** The path Spring reports for hosts whose payload does not list files: every application refreshes. */
const BROADCAST_PATH = 'application.yml';

type Body = Record<string, unknown>;
/** null: not this host's request. [] : this host's request, but it names no file (Spring moves on). */
type Extractor = (headers: WebhookHeaders, body: Body) => string[] | null;

const EXTRACTORS: [Exclude<WebhookHost, 'form' | 'none'>, Extractor][] = [
  ['github', commitsExtractor('X-Github-Event', 'push', 'GitHub')],
  ['simple', simplePaths],
  ['gitlab', commitsExtractor('X-Gitlab-Event', 'Push Hook', 'GitLab')],
  ['gitee', commitsExtractor('x-git-oschina-event', 'Push Hook', 'Gitee')],
  ['gogs', commitsExtractor('X-Gogs-Event', 'push', 'Gogs')],
  ['gitea', commitsExtractor('X-Gitea-Event', 'push', 'Gitea', () => [BROADCAST_PATH])],
  ['bitbucket-cloud', bitbucketCloud],
  ['bitbucket-server', bitbucketServer],
];

export function parsePushWebhook(input: PushWebhookInput): WebhookPush {
  if (isFormContentType(input.contentType)) {
    return { host: 'form', paths: formPaths(input.body) };
  }
  const body = input.body;
  if (body === undefined || body === null || body === '') {
    throw new WebhookError('webhook request body is missing');
  }
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new WebhookError(
      `webhook request body must be a JSON object, got ${Array.isArray(body) ? 'an array' : typeof body}`,
    );
  }
  let recognised: WebhookHost | undefined;
  for (const [host, extract] of EXTRACTORS) {
    const paths = extract(input.headers, body as Body);
    if (paths === null) continue;
    if (paths.length > 0) return { host, paths };
    recognised ??= host;
  }
  // A recognised push that names no files refreshes nothing, as in Spring; say which host it was.
  return { host: recognised ?? 'none', paths: [] };
}

/**
 * The host a request claims to come from, by its headers alone and in the extractors' order: the signature
 * check is decided by this, before the body is looked at, so a body shaped for another extractor (a GitHub
 * push with no files but a `path` field) cannot skip the check of the host its headers name.
 */
export function webhookHostFromHeaders(headers: WebhookHeaders): WebhookHost | undefined {
  if (firstHeader(headers, 'X-Github-Event') !== undefined) return 'github';
  if (
    firstHeader(headers, 'X-Gitlab-Event') !== undefined ||
    firstHeader(headers, 'X-Gitlab-Token') !== undefined
  )
    return 'gitlab';
  if (
    firstHeader(headers, 'x-git-oschina-event') !== undefined ||
    firstHeader(headers, 'X-Gitee-Token') !== undefined
  )
    return 'gitee';
  if (firstHeader(headers, 'X-Gogs-Event') !== undefined) return 'gogs';
  if (firstHeader(headers, 'X-Gitea-Event') !== undefined) return 'gitea';
  if (hasText(firstHeader(headers, 'X-Hook-UUID'))) return 'bitbucket-cloud';
  if (
    firstHeader(headers, 'X-Event-Key') !== undefined ||
    firstHeader(headers, 'X-Hub-Signature') !== undefined
  )
    return 'bitbucket-server';
  return undefined;
}

const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i;
const NO_COMMIT = /^0+$/;

/**
 * The commit a push webhook says the branch now points at, where the host sends one: `after` (GitHub, GitLab,
 * Gitee, Gogs, Gitea), the last change's `new.target.hash` (Bitbucket Cloud) or `toHash` (Bitbucket Server).
 * Undefined for a deletion (all zeros), a shape that does not match, or a host that sends none.
 */
export function pushedCommit(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const b = body as Body;
  const push = b.push as Body | undefined;
  const cloudChanges = typeof push === 'object' && push !== null ? push.changes : undefined;
  const candidates = [
    b.after,
    lastOf(cloudChanges, (c) => ((c.new as Body | undefined)?.target as Body | undefined)?.hash),
    lastOf(b.changes, (c) => c.toHash),
  ];
  const found = candidates.find(
    (c): c is string => typeof c === 'string' && COMMIT_ID.test(c) && !NO_COMMIT.test(c),
  );
  return found?.toLowerCase();
}

function lastOf(list: unknown, pick: (item: Body) => unknown): unknown {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const last: unknown = list[list.length - 1];
  return typeof last === 'object' && last !== null ? pick(last as Body) : undefined;
}

function isFormContentType(contentType: string): boolean {
  return contentType.split(';')[0]!.trim().toLowerCase() === 'application/x-www-form-urlencoded';
}

function formPaths(body: unknown): string[] {
  const path = typeof body === 'object' && body !== null ? (body as Body).path : undefined;
  if (path === undefined || path === null || (Array.isArray(path) && path.length === 0)) {
    throw new WebhookError('form webhook has no "path" parameter');
  }
  return stringList(path, 'form parameter "path"');
}

function simplePaths(_headers: WebhookHeaders, body: Body): string[] | null {
  if (!('path' in body) || body.path === null || body.path === undefined) return null;
  return stringList(body.path, 'body "path"');
}

function stringList(value: unknown, what: string): string[] {
  const list = Array.isArray(value) ? value : [value];
  for (const item of list) {
    if (typeof item !== 'string') throw new WebhookError(`${what} must be a string or a list of strings`);
  }
  return unique(list as string[]);
}

function commitsExtractor(
  header: string,
  value: string,
  hostName: string,
  pathsOf: (commits: unknown[]) => string[] = filesOfCommits(hostName),
): Extractor {
  return (headers, body) => {
    if (firstHeader(headers, header) !== value) return null;
    if (!Array.isArray(body.commits)) {
      throw new WebhookError(`${hostName} push webhook body has no "commits" list`);
    }
    return pathsOf(body.commits);
  };
}

function filesOfCommits(hostName: string): (commits: unknown[]) => string[] {
  return (commits) => {
    const paths: string[] = [];
    commits.forEach((commit, i) => {
      if (typeof commit !== 'object' || commit === null) {
        throw new WebhookError(`${hostName} push webhook commits[${i}] must be an object`);
      }
      for (const kind of ['added', 'removed', 'modified']) {
        const files = (commit as Body)[kind];
        if (files === undefined || files === null) continue;
        if (!Array.isArray(files) || files.some((f) => typeof f !== 'string')) {
          throw new WebhookError(
            `${hostName} push webhook commits[${i}].${kind} must be a list of file names`,
          );
        }
        // A loop, not push(...files): a webhook body can hold a list long enough to overflow the call stack.
        for (const file of files as string[]) paths.push(file);
      }
    });
    return unique(paths);
  };
}

function bitbucketCloud(headers: WebhookHeaders, body: Body): string[] | null {
  const event = firstHeader(headers, 'X-Event-Key');
  if (
    (event !== 'repo:push' && event !== 'pullrequest:fulfilled') ||
    !hasText(firstHeader(headers, 'X-Hook-UUID'))
  ) {
    return null;
  }
  const push = body.push;
  if (typeof push !== 'object' || push === null || !Array.isArray((push as Body).changes)) {
    throw new WebhookError('Bitbucket Cloud webhook body has no "push.changes" list');
  }
  return [BROADCAST_PATH];
}

function bitbucketServer(headers: WebhookHeaders, body: Body): string[] | null {
  const event = firstHeader(headers, 'X-Event-Key');
  if (!hasText(firstHeader(headers, 'X-Request-Id'))) return null;
  if (event === 'pr:merged') return [BROADCAST_PATH];
  if (event !== 'repo:refs_changed') return null;
  if (!Array.isArray(body.changes)) {
    throw new WebhookError('Bitbucket Server webhook body has no "changes" list');
  }
  return [BROADCAST_PATH];
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
