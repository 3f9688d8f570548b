/**
 * The README as a new user meets it: a fresh `git clone` of this checkout's commit in an empty folder, then the
 * "Quick start" (its `npm ci && npm start` line, the four curls, the console page) and the "Try the bus" block
 * twice (it must be repeatable), each read from the clone's README.md and run by bash as written, with the
 * outputs the README promises checked. The quick start's `npm ci` is the only install: the walkthrough reuses
 * the clone. Not run: the quick start's `npm ci && npm test` line (it is this suite).
 *
 * The commands use the README's fixed ports (8888, 8081, 8082) and the broker on 127.0.0.1:5672; the
 * walkthrough's clients and server get a virtual host of their own through SPRING_RABBITMQ_VIRTUAL_HOST.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { checkWalkthroughRound } from '../support/bus-walkthrough.js';
import { readmeBlocks } from '../support/readme.js';
import { type ShellBlock, startShellBlock } from '../support/shell-block.js';
import { type LogLine, splitTranscript } from '../support/terminal-transcript.js';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
/** `npm ci` (packages, then the `prepare` build of every workspace) on a loaded machine, then the start. */
const INSTALL_AND_START_MS = 15 * 60_000;

/**
 * The environment of a reader's terminal: without the variables `npm test` sets for its scripts, the coverage
 * hook, the test run's own SPRING_/CONFBUS_ settings, and this checkout's node_modules/.bin on PATH (so
 * `npx confbus` can only find the clone's).
 * `prefer-offline` spares the registry a revalidation request per package; the versions are the lockfile's.
 */
function readerEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (/^(npm_|SPRING_|CONFBUS_)/i.test(name)) continue;
    if (['NODE_V8_COVERAGE', 'NODE_OPTIONS', 'INIT_CWD'].includes(name)) continue;
    env[name] = value;
  }
  env.PATH = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => !dir.includes('node_modules'))
    .join(delimiter);
  return { ...env, npm_config_prefer_offline: 'true', ...extra };
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  return (await run('git', args, { cwd })).stdout.trim();
}

describe('README, run as written in a fresh clone', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;
  let clone: string;
  let vhost: TestVhost;
  const blocks: ShellBlock[] = [];

  /** Starts a README snippet in the clone; `after` stops whatever is still running. */
  function startInClone(script: string, deadlineMs: number, env: Record<string, string> = {}): ShellBlock {
    const block = startShellBlock(script, { cwd: clone, env: readerEnv(env), deadlineMs });
    blocks.push(block);
    return block;
  }

  before(async () => {
    temp = await makeTempDir('confbus-clone-');
    // The committed state, as `git clone` gives it to anyone: nothing uncommitted or git-ignored comes along.
    await run('git', ['clone', '--quiet', root, join(temp.path, 'confbus')]);
    // Real path: the server names its sample repository by the real path of its working directory.
    clone = await realpath(join(temp.path, 'confbus'));
    assert.equal(await git(clone, 'rev-parse', 'HEAD'), await git(root, 'rev-parse', 'HEAD'));
    vhost = await createTestVhost();
  });
  after(async () => {
    await Promise.all(blocks.map((block) => block.stop()));
    await temp?.remove();
    await vhost?.remove();
  });

  it('Quick start: `npm ci && npm start` serves the sample repository, and the curls answer as documented', async () => {
    const [commands, curls] = await readmeBlocks('sh', '## Quick start', clone);
    const installAndStart = commands.split('\n').find((line) => /^npm ci && npm start\b/.test(line));
    assert.ok(installAndStart, 'the quick start installs and starts with `npm ci && npm start`');
    const server = startInClone(installAndStart, INSTALL_AND_START_MS);
    // "the log shows URLs to try"
    const tryLine = await waitFor(
      'npm ci && npm start to log the URLs to try',
      () => logs(server).find((l) => l.msg.startsWith('Try: ')) ?? (server.running() ? undefined : 'ended'),
      { timeoutMs: INSTALL_AND_START_MS, intervalMs: 250 },
    );
    if (tryLine === 'ended') assert.fail(`npm ci && npm start ended:\n${server.output()}`);
    const sampleRepository = join(clone, '.confbus/sample-config-repo');

    const lines = (curls ?? '').split('\n').filter((line) => line.trim() !== '');
    const paths = lines.map((line) => /^curl localhost:8888(\S+)/.exec(line)?.[1]);
    assert.deepEqual(paths, ['/sample/dev', '/sample-real.yml', '/sample/dev,real/main', '/actuator/health']);
    const answers = new Map<string, string>();
    for (const [i, line] of lines.entries()) {
      const path = paths[i] as string;
      assert.ok(tryLine.msg.includes(`:8888${path}`), `the log suggests ${path}`);
      answers.set(path, (await run('bash', ['-e', '-c', line], { cwd: clone, env: readerEnv() })).stdout);
    }

    // "Spring environment JSON", from the sample repository the start created in the clone.
    const dev = JSON.parse(answers.get('/sample/dev') as string) as SpringEnvironment;
    assert.equal(dev.name, 'sample');
    assert.deepEqual(dev.profiles, ['dev']);
    assert.equal(dev.label, null);
    assert.match(dev.version ?? '', /^[0-9a-f]{40}$/);
    assert.deepEqual(dev.propertySources[0], {
      name: join(sampleRepository, 'sample-dev.yml'),
      source: { 'group.profile': 'dev', 'group.comment': 'development settings for sample' },
    });
    // "merged YAML": the real profile over the shared defaults.
    const merged = parseYaml(answers.get('/sample-real.yml') as string) as Record<string, unknown>;
    assert.deepEqual(merged.group, { profile: 'real', comment: 'production settings for sample' });
    assert.deepEqual(merged.info, { 'served-by': 'confbus' });
    // "two profiles, explicit label"
    const both = JSON.parse(answers.get('/sample/dev,real/main') as string) as SpringEnvironment;
    assert.equal(both.label, 'main');
    assert.equal(both.version, dev.version);
    assert.deepEqual(
      both.propertySources.slice(0, 2).map((source) => source.name),
      [join(sampleRepository, 'sample-real.yml'), join(sampleRepository, 'sample-dev.yml')],
    );
    assert.equal((JSON.parse(answers.get('/actuator/health') as string) as { status: string }).status, 'UP');

    // "Open http://localhost:8888/-/console/ for the operator console"
    const consolePage = await fetch('http://localhost:8888/-/console/');
    assert.equal(consolePage.status, 200);
    assert.match(await consolePage.text(), /<script type="module"/);

    // The walkthrough needs port 8888: "stop the quick-start server first".
    await server.stop();
  });

  it('Try the bus: one call and the webhook refresh both sample clients, and the block runs again', async () => {
    assert.ok(
      existsSync(join(clone, 'node_modules/.bin/confbus')),
      "the quick start's npm ci installed the clone",
    );
    const [walkthrough] = await readmeBlocks('sh', '### Try the bus', clone);
    const sampleRepository = join(clone, '.confbus/sample-config-repo');
    const comment = async () =>
      /^ {2}comment: (.*)$/m.exec(await git(sampleRepository, 'show', 'HEAD:sample-dev.yml'))?.[1];
    // The quick start's sample, unchanged: the first round's clients start with it.
    let startupComment = await comment();
    assert.equal(startupComment, 'development settings for sample');
    for (let round = 1; round <= 2; round++) {
      const block = startInClone(walkthrough, 180_000, { SPRING_RABBITMQ_VIRTUAL_HOST: vhost.name });
      const { code, killed } = await block.finished;
      const output = block.output();
      if (process.env.CONFBUS_DEBUG_README) console.log(output);
      assert.equal(code, 0, `round ${round} exited ${code}:\n${output}`);
      // "kill %1 %2 %3   # stop the server and both clients": nothing was left for the test to kill.
      assert.deepEqual(killed, [], `round ${round} left processes running:\n${output}`);
      const changedComment = await comment();
      assert.match(changedComment ?? '', /^changed at \d\d:\d\d:\d\d$/, `round ${round} edited the sample`);
      try {
        checkWalkthroughRound(block.stdout(), {
          startupComment: startupComment as string,
          changedComment: changedComment as string,
          commit: await git(sampleRepository, 'rev-parse', 'HEAD'),
          sampleRepository,
        });
      } catch (error) {
        throw new Error(`round ${round}: ${(error as Error).message}\n${output}`, { cause: error });
      }
      startupComment = changedComment; // the next round's clients start from this round's edit
    }
  });
});

interface SpringEnvironment {
  name: string;
  profiles: string[];
  label: string | null;
  version: string | null;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

function logs(block: ShellBlock): LogLine[] {
  return splitTranscript(block.stdout()).logs;
}
