/**
 * `confbus run` with `{cipher}` values the server passes through (encrypt.enabled=false) and the client
 * decrypts: the child gets the plain value, confbus's log lines never hold it (at TRACE), and a push the
 * client cannot decrypt restarts nothing.
 */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import {
  CONFBUS_BIN,
  type ConfbusProcess,
  runConfbusCommand,
  startConfbusServer,
} from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { PYTHON_CHILD, logMessages } from './support/follow-children.js';

const KEY = 'confbus run test key 5b1f';
const SECRETS = ['first-S3cret-a81c', 'second-S3cret-f02d', 'third-S3cret-77e0'];

async function encrypt(text: string, key = KEY): Promise<string> {
  const run = await runConfbusCommand(['encrypt'], { input: `${text}\n`, env: { ENCRYPT_KEY: key } });
  assert.equal(run.code, 0, run.stderr);
  return `{cipher}${run.stdout.trim()}`;
}

const appYml = async (secret: string, key = KEY) =>
  `greeting: hi\ndb:\n  password: '${await encrypt(secret, key)}'\n`;

describe('confbus run with {cipher} values', () => {
  let remote: GitRemote;
  let temp: TempDir;
  let server: ConfbusProcess;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({ 'app.yml': await appYml(SECRETS[0]!) });
    temp = await makeTempDir('confbus-run-secrets-');
    await writeFile(join(temp.path, 'child.py'), PYTHON_CHILD);
    server = await startConfbusServer({
      gitUri: remote.url,
      basedir: join(temp.path, 'mirror'),
      args: ['--spring.cloud.config.server.encrypt.enabled=false'],
    });
  });

  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  it('hands the child the plain value, never logs it, and restarts nothing for a value it cannot decrypt', async () => {
    const run = startNodeProcess(
      CONFBUS_BIN,
      [
        'run',
        '--spring.application.name=app',
        `--spring.cloud.config.uri=${server.url}`,
        '--confbus.client.poll.interval=200',
        '--debounce=50ms',
        '--logging.level.root=trace',
        '--',
        'python3',
        join(temp.path, 'child.py'),
      ],
      // The key comes through the environment, as in production, never as an argument.
      { CONFBUS_LOGGING_FORMAT: 'json', ENCRYPT_KEY: KEY },
      { cwd: temp.path },
    );
    await run.waitForLine(new RegExp(`^serving .*DB_PASSWORD=${SECRETS[0]}$`));

    await remote.commit({ 'app.yml': await appYml(SECRETS[1]!, 'another key') });
    await waitFor('the refused refresh', () =>
      logMessages(run).some((msg) =>
        /^Refresh failed, keeping the current configuration.*db\.password/.test(msg),
      ),
    );
    await remote.commit({ 'app.yml': await appYml(SECRETS[2]!) });
    await run.waitForLine(new RegExp(`^serving .*DB_PASSWORD=${SECRETS[2]}$`));
    assert.equal(run.stdout.filter((line) => line.startsWith('serving ')).length, 2);
    await run.stop();

    const logs = run.stderr.join('\n');
    assert.ok(logs.length > 0);
    for (const secret of SECRETS) assert.ok(!logs.includes(secret), `a log line holds ${secret}`);
  });
});
