// Path fuzzing against a real server on a real repository. Thousands of paths built from a hostile alphabet
// must give no 5xx beyond the documented ones, no crash, no file outside the temp dirs, no git argument
// starting with "-" that came from a request, and bounded memory.
// Reproduce a failure with CONFBUS_FUZZ_SEED=<seed> (printed in every failure message);
// CONFBUS_FUZZ_CASES changes the case count.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { prng } from '@confbus/testkit/fuzz';
import { type GitArgvShim, installGitArgvShim } from '@confbus/testkit/git-argv-shim';
import { type PreparedServer, startPreparedServer } from '../security/prepared-server.js';

const SEED = Number(process.env.CONFBUS_FUZZ_SEED ?? 0x5eed2026);
const CASES = Number(process.env.CONFBUS_FUZZ_CASES ?? 10000);
const CONCURRENCY = 8;
/**
 * Every fragment that could become an option carries this marker, so its way into argv can be traced. It holds
 * an underscore so that no mkdtemp name can contain it (their random part is [A-Za-z0-9]: a two-letter marker
 * once matched another test's `confbus-server-ZzqreC` folder in /tmp and failed CI).
 */
const MARK = 'zq_fuzz';

const FRAGMENTS = [
  // traversal and separators, raw and encoded (also double-encoded)
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '%2F',
  '%2f',
  '%5C',
  '\\',
  '(_)',
  '%252e%252e',
  '%252F',
  '//',
  // options and git revision syntax
  '-',
  '--',
  `--upload-pack=touch%20${MARK}-pwned`,
  `--${MARK}`,
  `-${MARK}`,
  `--output=${MARK}`,
  '@{',
  '@{-1}',
  '@',
  '~',
  '~1',
  '^',
  '^{tree}',
  '^{}',
  ':',
  ':/',
  'HEAD',
  'refs/heads/master',
  '.lock',
  '.git',
  // control, space, unicode (percent-encoded UTF-8 and a raw Latin-1 byte that is not valid UTF-8)
  '%00',
  '%0A',
  '%0D',
  '%20',
  '+',
  '%C3%A9',
  'é',
  '%F0%9F%92%A5',
  '\u{1F4A5}',
  '\u202e',
  '%',
  '%zz',
  '%C0%AF',
  // Spring syntax: lists, file suffixes, placeholders, wildcards
  ',',
  '%2C',
  '.yml',
  '.yaml',
  '.properties',
  '.json',
  '*',
  '**',
  '{application}',
  '${user.home}',
  '%23',
  '%3F',
  // names that exist in the repository
  'foo',
  'application',
  'dev',
  'db',
  'master',
  'v1',
  'feature',
  'feature%2Fx',
  'broken',
  'default',
];

/** Characters the HTTP client cannot send raw are percent-encoded; Latin-1 bytes go raw on purpose. */
function wire(path: string): string {
  return [...path].map((c) => (/[\u0021-\u00ff]/.test(c) ? c : encodeURIComponent(c))).join('');
}

function generatePath(random: () => number): string {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const roll = random();
  if (roll < 0.03) return `/${'a'.repeat(1000 + Math.floor(random() * 4000))}`;
  if (roll < 0.06) return `/foo/dev/${pick(FRAGMENTS).repeat(200 + Math.floor(random() * 800))}`;
  if (roll < 0.5) {
    // Mostly-valid shapes with one hostile piece, so requests get past validation into the repository.
    const names = ['foo', 'application', 'broken', 'foo,broken', 'bar', `-${MARK}`, 'feature'];
    const profiles = ['dev', 'default', 'dev,db', 'db', 'x'];
    const labels = ['', 'master', 'v1', 'feature%2Fx', 'feature(_)x', 'main', 'nope'];
    const hostile = (base: string): string =>
      random() < 0.5 ? base : random() < 0.5 ? `${base}${pick(FRAGMENTS)}` : `${pick(FRAGMENTS)}${base}`;
    const label = hostile(pick(labels));
    const name = hostile(pick(names));
    const profile = hostile(pick(profiles));
    if (random() < 0.2) {
      // Plain-text resources: /{name}/{profile}/{label}/{path} and /{name}/{profile}/{path}?useDefaultLabel.
      const files = [
        'nginx.conf',
        'dir/page.txt',
        '.git/config',
        '../../etc/passwd',
        'dir%2F..%2F..%2Fconfig',
      ];
      const path = Array.from({ length: 1 + Math.floor(random() * 3) }, () => hostile(pick(files))).join('/');
      return random() < 0.3
        ? `/${name}/${profile}/${path.replace(/\//g, '')}?useDefaultLabel`
        : `/${name}/${profile}/${label || 'master'}/${path}`;
    }
    if (random() < 0.3) {
      const file = `${name}-${profile}.${pick(['yml', 'yaml', 'properties', 'json'])}`;
      return label === '' ? `/${file}` : `/${label}/${file}`;
    }
    return label === '' ? `/${name}/${profile}` : `/${name}/${profile}/${label}`;
  }
  const segments = 1 + Math.floor(random() * 4);
  const parts: string[] = [];
  for (let s = 0; s < segments; s++) {
    let segment = '';
    const pieces = 1 + Math.floor(random() * 4);
    for (let p = 0; p < pieces; p++) segment += pick(FRAGMENTS);
    if (random() < 0.1) segment += `-${pick(FRAGMENTS)}.${pick(['yml', 'properties', 'json', 'yaml'])}`;
    parts.push(segment);
  }
  const query = random() < 0.1 ? `?resolvePlaceholders=${pick(['false', 'true', '%00', '..'])}` : '';
  return `/${parts.join('/')}${query}`;
}

interface Outcome {
  status: number;
  body: string;
}

describe('path fuzz', () => {
  let remote: GitRemote;
  let shim: GitArgvShim;
  let server: PreparedServer;
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const cwdBefore: string[] = [];

  before(async () => {
    cwdBefore.push(...(await readdir(process.cwd())));
    remote = await createGitRemote();
    await remote.commit(
      {
        'application.yml': 'shared: yes\n',
        'foo.yml': 'foo: base\n',
        'foo-dev.yml': 'foo: dev\n',
        'broken.yml': 'key: [unclosed\n',
        [`-${MARK}.yml`]: 'dash: file\n',
        'nginx.conf': 'upstream ${foo} ${user.home:none};\n',
        'dir/page.txt': 'page ${shared}\n',
      },
      { tag: 'v1' },
    );
    await remote.commit({ 'feature.yml': 'on: true\n' }, { branch: 'feature/x' });
    shim = await installGitArgvShim();
    server = await startPreparedServer(
      {
        'spring.cloud.config.server.git.uri': remote.url,
        // Upstream checks at most once a second: frequent enough to interleave fetches with the fuzz.
        'spring.cloud.config.server.git.refresh-rate': '1',
        'spring.cloud.config.server.git.clone-on-start': 'true',
        'logging.level.root': 'info',
      },
      () => undefined,
    );
  });

  after(async () => {
    agent.destroy();
    await server?.stop();
    await remote?.remove();
    await shim?.remove();
  });

  function send(path: string): Promise<Outcome> {
    const url = new URL(server.base);
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          path: wire(path),
          agent,
          headers: { accept: 'application/json' },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  it(`${CASES} generated paths: only documented 5xx, no crash, no stray files, no injected git options, bounded heap`, async (t) => {
    const random = prng(SEED);
    const paths = Array.from({ length: CASES }, () => generatePath(random));
    const context = (path: string) => `seed=${SEED} (CONFBUS_FUZZ_SEED), path=${JSON.stringify(path)}`;
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const statuses = new Map<number, number>();
    let heapBaseline = 0;
    let next = 0;
    const started = performance.now();

    const worker = async (): Promise<void> => {
      while (next < paths.length) {
        const index = next++;
        const path = paths[index] as string;
        if (index === Math.floor(paths.length / 2)) await remote.commit({ 'foo.yml': 'foo: second\n' });
        let outcome: Outcome;
        try {
          outcome = await send(path);
        } catch (error) {
          assert.fail(`request failed (${String(error)}); ${context(path)}`);
        }
        statuses.set(outcome.status, (statuses.get(outcome.status) ?? 0) + 1);
        // A plain-text resource never reveals anything outside the repository's tree.
        assert.doesNotMatch(outcome.body, /root:x:0:|\[core\]|repositoryformatversion/, context(path));
        if (outcome.status >= 400) {
          let code: unknown;
          try {
            code = (JSON.parse(outcome.body) as { code?: unknown }).code;
          } catch {
            assert.fail(
              `${outcome.status} without a JSON error body: ${outcome.body.slice(0, 200)}; ${context(path)}`,
            );
          }
          if (outcome.status >= 500) {
            const documented =
              (outcome.status === 500 && code === 'CONFBUS_CONFIG_PARSE') ||
              (outcome.status === 503 && code === 'CONFBUS_REPOSITORY_UNAVAILABLE');
            assert.ok(documented, `undocumented ${outcome.status} ${String(code)}; ${context(path)}`);
          }
        }
      }
    };

    // Warm up (caches, JIT, sockets) before taking the heap baseline.
    const warm = paths.splice(0, 500);
    for (const path of warm) await send(path);
    gc();
    heapBaseline = process.memoryUsage().heapUsed;
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    gc();
    const heapGrowth = process.memoryUsage().heapUsed - heapBaseline;
    const seconds = (performance.now() - started) / 1000;

    // Still serving.
    assert.equal((await send('/foo/dev')).status, 200, `server stopped serving; seed=${SEED}`);
    assert.equal((await send('/actuator/health')).status, 200);

    // No git argument starting with "-" came from a request (every hostile option fragment carries MARK).
    const invocations = await shim.invocations();
    const args = invocations.flat();
    // File reads go through git cat-file.
    assert.ok(args.includes('cat-file'), 'the git shim saw no invocations');
    const injected = args.filter(
      (arg) => arg.startsWith('-') && (arg.includes(MARK) || arg.startsWith('--upload-pack')),
    );
    assert.deepEqual(injected, [], `git started with request-supplied options; seed=${SEED}`);

    // No file created outside the temp dirs.
    assert.deepEqual(
      (await readdir(process.cwd())).sort(),
      [...cwdBefore].sort(),
      `cwd changed; seed=${SEED}`,
    );
    const stray = (await readdir(tmpdir())).filter((name) => name.includes(MARK));
    assert.deepEqual(stray, [], `files in ${tmpdir()}; seed=${SEED}`);
    const mirrorFiles = execFileSync('find', [
      server.workDir,
      shim.path,
      '-name',
      `*${MARK}-pwned*`,
    ]).toString();
    assert.equal(mirrorFiles, '', `upload-pack payload ran; seed=${SEED}`);

    // Bounded memory: the environment cache is bounded and rejected requests leave nothing behind.
    assert.ok(
      heapGrowth < 64 * 1024 * 1024,
      `heap grew by ${Math.round(heapGrowth / 1048576)} MB; seed=${SEED}`,
    );

    t.diagnostic(
      `seed=${SEED} cases=${CASES} in ${seconds.toFixed(1)} s; statuses ${JSON.stringify(Object.fromEntries([...statuses].sort()))}; ` +
        `git invocations=${invocations.length}; heap growth=${(heapGrowth / 1048576).toFixed(1)} MB`,
    );
  });
});
