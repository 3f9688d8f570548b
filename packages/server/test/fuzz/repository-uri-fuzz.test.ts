// Uri-template fuzzing against a real server: three templates (smart HTTP, git://, file://) with {application},
// {profile} and {label} in their paths, and thousands of requests whose values come from a hostile alphabet (hosts
// and ports, user info, traversal, options, remote helpers, encodings, controls). Whatever the values: a listener
// on another port hears nothing, every git command names one of the configured upstreams and no path above them,
// no request-supplied option reaches git, and the answers are 200, 404, 400 naming the value, or a documented 503.
// Reproduce a failure with CONFBUS_FUZZ_SEED=<seed> (printed in every failure message); CONFBUS_FUZZ_CASES changes
// the case count.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdir, readdir } from 'node:fs/promises';
import { type Server, createServer } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type GitDaemon, startGitDaemon } from '@confbus/testkit/git-daemon';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { createGitRemote } from '@confbus/testkit/git-remote';
import { prng } from '@confbus/testkit/fuzz';
import { type GitArgvShim, installGitArgvShim } from '@confbus/testkit/git-argv-shim';
import { listenOnLoopback } from '@confbus/testkit/loopback';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { type PreparedServer, startPreparedServer } from '../security/prepared-server.js';

const SEED = Number(process.env.CONFBUS_FUZZ_SEED ?? 0x0c0ffee5);
const CASES = Number(process.env.CONFBUS_FUZZ_CASES ?? 1000);
const CONCURRENCY = 4;
/** Marks every fragment that could become an option, so its way into git's argv can be traced. */
const MARK = 'zq_urifuzz';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;

/**
 * Fragments the request routes accept (names allow `@`, `+` and letters of any script; labels most of git's ref
 * characters) but a uri must not carry: these reach the templates' own check.
 */
const PAST_THE_ROUTES = ['@', '@127.0.0.1', 'x@localhost', '+', '%C3%A9', '%25', '%2540', '%23', '!', '='];

/** Fragments in wire form (what goes on the request line): percent-encoded where a raw one cannot be sent. */
function fragments(trapPort: number): string[] {
  return [
    // other hosts and ports, user info
    `127.0.0.1:${trapPort}`,
    `localhost:${trapPort}`,
    `@127.0.0.1:${trapPort}`,
    `x@127.0.0.1`,
    `%40127.0.0.1%3A${trapPort}`,
    `127.0.0.1%3A${trapPort}`,
    `[::1]:${trapPort}`,
    '@',
    ':',
    '%3A',
    '%40',
    // traversal and separators, raw and encoded
    '..',
    '(_)..(_)',
    '(_)',
    '%2e%2e',
    '%252e%252e',
    '%2F',
    '%5C',
    '\\',
    '//',
    '.',
    '.git',
    // options and remote helpers
    '-',
    `-${MARK}`,
    `--upload-pack=touch%20${MARK}`,
    `ext::sh%20-c%20touch%20${MARK}`,
    'fd::7',
    // query, fragment, encodings, controls, unicode
    '?',
    '%3F',
    '%23',
    '%25',
    '%00',
    '%0A',
    '%20',
    '+',
    ',',
    '%C3%A9',
    '%E2%80%AE',
    // names that exist
    'alpha',
    'beta',
    'team(_)gamma',
    'dev',
    'main',
  ];
}

function generatePath(random: () => number, pieces: readonly string[]): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const piece = (): string => (random() < 0.5 ? pick(PAST_THE_ROUTES) : pick(pieces));
  const hostile = (base: string): string =>
    random() < 0.4 ? base : random() < 0.5 ? `${base}${piece()}` : `${piece()}${base}`;
  // The application picks the template: `d-*` the git:// one ({profile}/{application}), `l-*` the file:// one
  // ({label}/{application}), anything else the default smart-HTTP one ({application}).
  const application = hostile(pick(['alpha', 'beta', 'team(_)gamma', 'd-alpha', 'l-alpha', 'nope', '']));
  const profile = hostile(pick(['dev', 'default', 'dev,db', 'x']));
  const label = random() < 0.3 ? '' : hostile(pick(['main', 'master', 'v1', 'feature(_)x']));
  return label === '' ? `/${application}/${profile}` : `/${application}/${profile}/${label}`;
}

/** Characters the HTTP client cannot send raw are percent-encoded; the fragments above are already. */
function wire(path: string): string {
  return [...path].map((c) => (/[\u0021-\u007e]/.test(c) ? c : encodeURIComponent(c))).join('');
}

describe('repository uri fuzz', () => {
  let parent: TempDir;
  let shim: GitArgvShim;
  let http: GitHttpServer;
  let daemon: GitDaemon;
  let trap: Server;
  let trapPort: number;
  let trapConnections = 0;
  let server: PreparedServer;

  before(async () => {
    parent = await makeTempDir('confbus-urifuzz-repos-');
    // parent/{alpha,beta,team/gamma}.git for HTTP; parent/dev/d-alpha.git for git://; parent/main/l-alpha.git.
    const source = await createGitRemote('source');
    await source.commit({ 'application.yml': 'from: fuzz\n' });
    for (const target of ['alpha.git', 'beta.git', 'team/gamma.git', 'dev/d-alpha.git', 'main/l-alpha.git']) {
      await mkdir(join(parent.path, target, '..'), { recursive: true });
      execFileSync('git', ['clone', '--quiet', '--bare', source.path, join(parent.path, target)]);
    }
    await source.remove();
    http = await startGitHttpServer(parent.path);
    daemon = await startGitDaemon(parent.path);
    trap = createServer((socket) => {
      trapConnections++;
      socket.destroy();
    });
    trapPort = await listenOnLoopback(trap);

    shim = await installGitArgvShim();
    const git = 'spring.cloud.config.server.git';
    server = await startPreparedServer({
      [`${git}.uri`]: `http://127.0.0.1:${http.port}/{application}.git`,
      [`${git}.repos.daemon.uri`]: `git://127.0.0.1:${daemon.port}/{profile}/{application}.git`,
      [`${git}.repos.daemon.pattern`]: 'd-*',
      [`${git}.repos.local.uri`]: `${pathToFileURL(parent.path).href}/{label}/{application}.git`,
      [`${git}.repos.local.pattern`]: 'l-*',
      [`${git}.default-label`]: 'main',
      [`${git}.refresh-rate`]: '5',
      'confbus.server.git.max-placeholder-repositories': '3',
      'logging.level.root': 'info',
    });
  });

  after(async () => {
    await server?.stop();
    await http?.stop();
    await daemon?.stop();
    await new Promise((resolve) => trap?.close(resolve));
    await parent?.remove();
    await shim?.remove();
  });

  async function send(path: string): Promise<{ status: number; body: string }> {
    const response = await fetch(`${server.base}${wire(path)}`, { headers: { accept: 'application/json' } });
    return { status: response.status, body: await response.text() };
  }

  it(`${CASES} generated requests: no other host or port, no path above the templates, no injected option`, async (t) => {
    const random = prng(SEED);
    const pieces = fragments(trapPort);
    const paths = Array.from({ length: CASES }, () => generatePath(random, pieces));
    const context = (path: string) => `seed=${SEED} (CONFBUS_FUZZ_SEED), path=${JSON.stringify(path)}`;
    const counts = new Map<string, number>();
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < paths.length) {
        const path = paths[next++] as string;
        const { status, body } = await send(path);
        let code: string | undefined;
        if (status >= 400) {
          try {
            ({ code } = JSON.parse(body) as { code?: string });
          } catch {
            assert.fail(`${status} without a JSON error body: ${body.slice(0, 200)}; ${context(path)}`);
          }
          assert.ok(code, `${status} without a code; ${context(path)}`);
        }
        const key = `${status} ${code ?? ''}`.trim();
        counts.set(key, (counts.get(key) ?? 0) + 1);
        assert.ok(
          status === 200 ||
            status === 404 ||
            status === 400 ||
            (status === 503 && /TOO_MANY_REPOSITORIES|REPOSITORY_UNAVAILABLE/.test(code ?? '')),
          `answered ${key}: ${body.slice(0, 300)}; ${context(path)}`,
        );
        if (code === 'CONFBUS_INVALID_REPOSITORY_NAME') {
          assert.match(
            (JSON.parse(body) as { message: string }).message,
            /^".*" cannot name a repository \(\{(application|profile|label)\} in the uri of repository '(default|daemon|local)'\): /s,
            context(path),
          );
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));

    assert.equal(trapConnections, 0, `a request made the server connect to another port; seed=${SEED}`);

    const invocations = await shim.invocations();
    const args = invocations.flat();
    const upstreams = [
      `http://127.0.0.1:${http.port}/`,
      `git://127.0.0.1:${daemon.port}/`,
      `${pathToFileURL(parent.path).href}/`,
    ];
    const urls = args.filter((arg) => arg.includes('://') || arg.includes('::'));
    assert.ok(urls.length > 0, 'git was never pointed at an upstream: the fuzz reached no clone');
    for (const url of urls) {
      assert.ok(
        upstreams.some((upstream) => url.startsWith(upstream)),
        `git pointed at ${url}; seed=${SEED}`,
      );
      assert.ok(
        !/(^|\/)\.\.(\/|$)|%|@|\?|#|\\/.test(url.slice(url.indexOf('://') + 3)),
        `${url}; seed=${SEED}`,
      );
    }
    // A value may name a repository (`alpha-zq_urifuzz` is a plain name), never start an argument or a helper.
    const injected = args.filter(
      (arg) => (arg.startsWith('-') && arg.includes(MARK)) || /ext::|fd::|upload-pack=touch/.test(arg),
    );
    assert.deepEqual(injected, [], `request values became git options; seed=${SEED}`);
    assert.deepEqual(await readdir(shim.path), ['argv.log', 'git'], `a payload ran; seed=${SEED}`);

    assert.ok((counts.get('200') ?? 0) > 0, `nothing was served: ${JSON.stringify([...counts])}`);
    assert.ok((counts.get('400 CONFBUS_INVALID_REPOSITORY_NAME') ?? 0) > 0, 'no value reached a template');
    t.diagnostic(
      `seed=${SEED} cases=${CASES}; answers ${JSON.stringify(Object.fromEntries([...counts].sort()))}; ` +
        `git invocations=${invocations.length}, upstream uris=${urls.length}`,
    );
  });
});
