// Hostile repository content against a real server (issue #15): each case must give a clean, named error —
// never 500 CONFBUS_INTERNAL, a crash or a stall — and must not disturb the other applications.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type TestServer, startGitTestServer } from './git-server-harness.js';

interface ErrorBody {
  code: string;
  message: string;
}

/** Commits a tree entry named `.git` holding `application.yml` (git refuses to `add` one; plumbing does not). */
async function commitGitTreeEntry(remote: GitRemote): Promise<void> {
  const work = (await remote.git('rev-parse', '--show-toplevel')).trim();
  const git = (args: string[], input?: string) =>
    execFileSync('git', args, { cwd: work, input, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null' } })
      .toString()
      .trim();
  const blob = git(['hash-object', '-w', '--stdin'], 'smuggled: from-dot-git\n');
  const inner = git(['mktree'], `100644 blob ${blob}\tapplication.yml\n`);
  const root = git(['mktree'], `${git(['ls-tree', 'HEAD'])}\n040000 tree ${inner}\t.git\n`);
  const commit = git([
    '-c',
    'user.name=t',
    '-c',
    'user.email=t@t.invalid',
    'commit-tree',
    root,
    '-p',
    'HEAD',
    '-m',
    'tree entry named .git',
  ]);
  git(['update-ref', 'refs/heads/master', commit]);
  git(['push', '--quiet', 'origin', 'master']);
}

function placeholderBomb(levels: number): string {
  const lines = ['p0: "xx"'];
  for (let i = 1; i <= levels; i++) lines.push(`p${i}: "\${p${i - 1}}\${p${i - 1}}"`);
  return `${lines.join('\n')}\n`;
}

describe('hostile repository content', () => {
  let remote: GitRemote;
  let server: TestServer;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'application.yml': 'shared: yes\n',
      'deep.properties': `${Array.from({ length: 5000 }, () => 'a').join('.')}=1\nother=2\n`,
      'parens.yml': `spring.config.activate.on-profile: "${'('.repeat(10_000)}dev${')'.repeat(10_000)}"\na: 1\n`,
      'nots.yml': `spring.config.activate.on-profile: "${'!'.repeat(10_000)}dev"\na: 1\n`,
      'nested.yml': `a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`,
      'big.yml': `${Array.from({ length: 40_000 }, (_, i) => `key${i}: value ${i}`).join('\n')}\n`,
      'bomb.yml': placeholderBomb(22),
      'wide.properties': `${Array.from({ length: 32_000 }, (_, i) => `w${i}=${i}`).join('\n')}\n`,
      'wide-dev.properties': `${Array.from({ length: 32_000 }, (_, i) => `d${i}=${i}`).join('\n')}\n`,
    });
    await commitGitTreeEntry(remote);
    server = await startGitTestServer({
      'spring.cloud.config.server.git.uri': remote.url,
      'spring.cloud.config.server.git.search-paths': '*',
      'confbus.server.max-file-bytes': '500000',
      'confbus.server.max-environment-bytes': '600000',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
  });

  async function expectError(path: string, status: number, code: string, message: RegExp): Promise<void> {
    const response = await server.get(path);
    assert.equal(response.status, status, `${path}: ${response.body.slice(0, 300)}`);
    const body = response.json() as ErrorBody;
    assert.equal(body.code, code, path);
    assert.match(body.message, message, path);
  }

  it('never serves files under a tree entry named .git, even with search-paths *', async () => {
    const env = (await server.get('/foo/default')).json() as {
      propertySources: Array<{ name: string; source: Record<string, unknown> }>;
    };
    assert.deepEqual(
      env.propertySources.map((s) => s.name.slice(remote.url.length)),
      ['/application.yml'],
    );
  });

  it('answers a 5,000-segment property name with a parse error naming the file, not CONFBUS_INTERNAL', async () => {
    for (const path of ['/deep/default', '/deep-default.yml', '/deep-default.json']) {
      await expectError(
        path,
        500,
        'CONFBUS_CONFIG_PARSE',
        /deep\.properties: document 1: property name .* segments/,
      );
    }
  });

  it('answers profile expressions nested 10,000 deep and 5,000-level YAML nesting with parse errors', async () => {
    await expectError(
      '/parens/dev',
      500,
      'CONFBUS_CONFIG_PARSE',
      /parens\.yml: .*nested more than \d+ levels/,
    );
    await expectError('/nots/dev', 500, 'CONFBUS_CONFIG_PARSE', /nots\.yml: .*nested more than \d+ levels/);
    await expectError(
      '/nested/default',
      500,
      'CONFBUS_CONFIG_PARSE',
      /nested\.yml: .*(nested too deeply|nested more than|segments)/,
    );
  });

  it('answers a placeholder bomb with CONFBUS_CONFIG_LIMIT naming file and key, and serves its JSON unresolved', async () => {
    await expectError(
      '/bomb-default.yml',
      500,
      'CONFBUS_CONFIG_LIMIT',
      /bomb\.yml: key 'p\d+': placeholders/,
    );
    await expectError('/bomb-default.properties', 500, 'CONFBUS_CONFIG_LIMIT', /bomb\.yml: key 'p\d+'/);
    assert.equal(
      (await server.get('/bomb/default')).status,
      200,
      'the environment endpoint resolves nothing',
    );
    assert.equal((await server.get('/bomb-default.yml?resolvePlaceholders=false')).status, 200);
    assert.equal((await server.get('/other/default')).status, 200, 'other applications are unaffected');
  });

  it('answers a file over confbus.server.max-file-bytes with CONFBUS_CONFIG_LIMIT naming it and the setting', async () => {
    await expectError(
      '/big/default',
      500,
      'CONFBUS_CONFIG_LIMIT',
      /big\.yml: the file is \d+ bytes, more than confbus\.server\.max-file-bytes \(500000\)/,
    );
    assert.equal((await server.get('/other/default')).status, 200);
  });

  it('answers an environment whose files add up to more than max-environment-bytes with CONFBUS_CONFIG_LIMIT', async () => {
    assert.equal((await server.get('/wide/default')).status, 200);
    await expectError(
      '/wide/dev',
      500,
      'CONFBUS_CONFIG_LIMIT',
      /wide.*\.properties: the files of 'wide' \(dev\) add up to more than confbus\.server\.max-environment-bytes/,
    );
  });
});
