// Git's own reason reaches the error: the `fatal:`/`error:`/`ssh:` lines are kept, the generic hint and the
// progress chatter are dropped, and credentials stay masked.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { GitMirror, RepositoryUnavailableError } from '../../src/git/index.js';
import { summarizeGitStderr } from '../../src/git/git-stderr.js';
import { captureLogger } from './helpers.js';

const HINT = 'Please make sure you have the correct access rights\nand the repository exists.\n';

describe('summarizeGitStderr', () => {
  it('keeps the fatal line that precedes the generic hint', () => {
    const stderr = `fatal: '/srv/x' does not appear to be a git repository\nfatal: Could not read from remote repository.\n\n${HINT}`;
    assert.equal(
      summarizeGitStderr(stderr),
      "fatal: '/srv/x' does not appear to be a git repository | fatal: Could not read from remote repository.",
    );
  });

  it("keeps ssh's own line and a fatal's continuation line", () => {
    assert.match(
      summarizeGitStderr(
        `ssh: connect to host h port 22: Connection refused\r\nfatal: Could not read\n\n${HINT}`,
      ),
      /^ssh: connect to host h port 22: Connection refused \| fatal: Could not read$/,
    );
    assert.equal(
      summarizeGitStderr('fatal: unable to connect to h:\nh[0: 1.2.3.4]: errno=Connection refused\n'),
      'fatal: unable to connect to h: | h[0: 1.2.3.4]: errno=Connection refused',
    );
  });

  it('drops progress lines, including \\r-rewritten ones, and prefers reasons when there are many lines', () => {
    const progress =
      'Receiving objects:  10% (1/10)\rReceiving objects: 100% (10/10), done.\nremote: Counting objects: 5\n';
    const warnings = Array.from({ length: 10 }, (_, i) => `warning: w${i}`).join('\n');
    const summary = summarizeGitStderr(`${progress}${warnings}\nerror: the cause\nfatal: the end\n`);
    assert.doesNotMatch(summary, /Receiving|Counting/);
    assert.match(summary, /error: the cause \| fatal: the end$/);
    assert.equal(summary.split(' | ').length, 6);
    assert.match(summary, /^warning: w6/, 'the last warnings fill the rest');
  });
});

describe('GitMirror errors name git’s reason', () => {
  let base: { path: string; remove: () => Promise<void> };
  const mirrors: GitMirror[] = [];
  const mirror = (uri: string, name: string, extra: { username?: string; password?: string } = {}) => {
    const logger = captureLogger();
    const m = new GitMirror({
      uri,
      basedir: join(base.path, name),
      defaultLabel: 'master',
      refreshRateSeconds: 0,
      timeoutSeconds: 30,
      logger,
      ...extra,
    });
    mirrors.push(m);
    return { mirror: m, logger };
  };
  const startError = async (m: GitMirror): Promise<string> => {
    let message = '';
    await assert.rejects(m.start(), (e: unknown) => {
      assert.ok(e instanceof RepositoryUnavailableError);
      message = e.message;
      return true;
    });
    return message;
  };

  before(async () => {
    base = await makeTempDir();
  });
  after(async () => {
    await Promise.all(mirrors.map((m) => m.close()));
    await base?.remove();
  });

  it('a wrong path: "does not appear to be a git repository", in the error, the log and health', async () => {
    const wrong = join(base.path, 'no-such-repo.git');
    const { mirror: m, logger } = mirror(wrong, 'wrong-path');
    const message = await startError(m);
    const reason = `fatal: '${wrong}' does not appear to be a git repository`;
    assert.ok(message.includes(reason), message);
    assert.doesNotMatch(message, /Please make sure/);
    assert.ok(m.health().lastError?.includes(reason));
    assert.ok(logger.text().includes('does not appear to be a git repository'));
  });

  it('ssh: "Connection refused" from ssh itself', async () => {
    const server = createServer().listen(0, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    await new Promise<void>((r) => server.close(() => r()));
    const { mirror: m } = mirror(`ssh://git@127.0.0.1:${port}/repo.git`, 'ssh-refused');
    const message = await startError(m);
    assert.match(
      message,
      new RegExp(`ssh: connect to host 127\\.0\\.0\\.1 port ${port}: Connection refused`),
    );
  });

  it('an unreachable https remote: curl’s reason, with the password masked', async () => {
    const password = 'hunter2-Secret';
    const { mirror: m, logger } = mirror(`http://config:${password}@127.0.0.1:1/repo.git`, 'http-refused');
    const message = await startError(m);
    assert.match(
      message,
      /fatal: unable to access 'http:\/\/127\.0\.0\.1:1\/repo\.git\/': Failed to connect/,
    );
    const everything = `${message}\n${logger.text()}\n${JSON.stringify(m.health())}`;
    assert.ok(!everything.includes(password), 'password leaked');
  });
});
