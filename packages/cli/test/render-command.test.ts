/**
 * `confbus render` as users run it: a real config server on a real git remote, confbus render as a child
 * process, and an nginx-like consumer (a shell script that re-reads its file on SIGHUP) reloaded by --exec.
 */
import assert from 'node:assert/strict';
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type NodeProcess,
  startNodeProcess,
  startProcess,
  stopAllNodeProcesses,
} from '@confbus/testkit/child-process';
import { CONFBUS_BIN, type ConfbusProcess, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { SHELL_CONSUMER, logMessages } from './support/follow-children.js';

const TEMPLATE = [
  'listen {{ config.server.port }};',
  '{% for host in config.upstream.hosts %}server {{ host }};',
  '{% endfor %}# {{ properties["group.comment"] }}',
  '',
].join('\n');

describe('confbus render', () => {
  let remote: GitRemote;
  let temp: TempDir;
  let server: ConfbusProcess;
  let template: string;

  before(async () => {
    remote = await createGitRemote();
    await remote.commit({
      'proxy.yml': 'server:\n  port: 8080\nupstream:\n  hosts: [a:1, b:2]\ngroup:\n  comment: first\n',
    });
    temp = await makeTempDir('confbus-render-');
    template = join(temp.path, 'nginx.conf.liquid');
    await writeFile(template, TEMPLATE);
    server = await startConfbusServer({ gitUri: remote.url, basedir: join(temp.path, 'mirror') });
  });

  after(async () => {
    await stopAllNodeProcesses();
    await remote?.remove();
    await temp?.remove();
  });

  function confbusRender(out: string, options: readonly string[]): NodeProcess {
    return startNodeProcess(
      CONFBUS_BIN,
      [
        'render',
        `--template=${template}`,
        `--out=${out}`,
        '--spring.application.name=proxy',
        `--spring.cloud.config.uri=${server.url}`,
        '--confbus.client.poll.interval=200',
        '--debounce=50ms',
        ...options,
      ],
      { CONFBUS_LOGGING_FORMAT: 'json' },
      { cwd: temp.path },
    );
  }

  it('renders once with --once and runs --exec after writing', async () => {
    const out = join(temp.path, 'once.conf');
    const marker = join(temp.path, 'exec-ran');
    const once = confbusRender(out, ['--once', `--exec=cp "${out}" "${marker}"`, '--mode=0640']);
    assert.equal(await once.exited, 0);
    const expected = 'listen 8080;\nserver a:1;\nserver b:2;\n# first\n';
    assert.equal(await readFile(out, 'utf8'), expected);
    assert.equal(await readFile(marker, 'utf8'), expected);
    assert.equal((await stat(out)).mode & 0o777, 0o640);
  });

  it('re-renders on a change and reloads the consumer; a failed render keeps the old file', async () => {
    const out = join(temp.path, 'nginx.conf');
    const pidFile = join(temp.path, 'consumer.pid');
    const render = confbusRender(out, [`--exec=kill -HUP "$(cat '${pidFile}')"`]);
    await waitFor('the first render', () => logMessages(render).includes(`Rendered ${out}`));
    const script = join(temp.path, 'consumer.sh');
    await writeFile(script, SHELL_CONSUMER);
    const consumer = startProcess('/bin/sh', [script], { CONF: out, PIDFILE: pidFile });
    await consumer.waitForLine(/^loaded: listen 8080; server a:1; server b:2; # first/);

    await remote.commit({
      'proxy.yml': 'server:\n  port: 8081\nupstream:\n  hosts: [c:3]\ngroup:\n  comment: second\n',
    });
    await consumer.waitForLine(/^loaded: listen 8081; server c:3; # second/).catch((error: Error) => {
      throw new Error(`${error.message}\nconfbus render:\n${render.lines.join('\n')}`);
    });

    // The template names upstream.hosts, which this configuration lacks: the file and the consumer stay.
    const before = await readFile(out, 'utf8');
    // Counted here, not from the start: the first render's --exec may still be running when the consumer starts.
    const loads = () => consumer.stdout.filter((line) => line.startsWith('loaded: ')).length;
    const loadsBefore = loads();
    await remote.commit({ 'proxy.yml': 'server:\n  port: 8082\ngroup:\n  comment: third\n' });
    const failure = await waitFor('the failed render', () =>
      logMessages(render).find((msg) => msg.includes('undefined variable: config.upstream')),
    );
    assert.match(failure, /nginx\.conf keeps its content, --exec not run/);
    assert.equal(await readFile(out, 'utf8'), before);
    assert.deepEqual(
      (await readdir(temp.path)).filter((name) => name.endsWith('.tmp')),
      [],
    );
    assert.equal(loads(), loadsBefore);

    await remote.commit({
      'proxy.yml': 'server:\n  port: 8083\nupstream:\n  hosts: [d:4]\ngroup:\n  comment: fourth\n',
    });
    await consumer.waitForLine(/^loaded: listen 8083; server d:4; # fourth/);
    await render.stop();
    assert.equal(await render.exited, 0);
    await consumer.stop();
  });

  it('reads the template again on SIGHUP, and keeps the file when the new one does not parse', async () => {
    const own = join(temp.path, 'reloaded.liquid');
    await writeFile(own, 'port {{ config.server.port }}\n');
    const out = join(temp.path, 'reloaded.conf');
    const render = startNodeProcess(
      CONFBUS_BIN,
      [
        'render',
        `--template=${own}`,
        `--out=${out}`,
        '--spring.application.name=proxy',
        `--spring.cloud.config.uri=${server.url}`,
      ],
      { CONFBUS_LOGGING_FORMAT: 'json' },
      { cwd: temp.path },
    );
    await waitFor('the first render', () => logMessages(render).includes(`Rendered ${out}`));
    const port = (await readFile(out, 'utf8')).trim();
    await writeFile(own, '{% if %}\n');
    process.kill(render.pid, 'SIGHUP');
    await waitFor('the refused template', () =>
      logMessages(render).some((msg) => msg.includes('reloaded.liquid') && msg.includes('keeps its content')),
    );
    assert.equal((await readFile(out, 'utf8')).trim(), port);
    await writeFile(own, 'listen {{ config.server.port }};\n');
    process.kill(render.pid, 'SIGHUP');
    await waitFor('the new template rendered', async () =>
      (await readFile(out, 'utf8')).startsWith('listen '),
    );
    assert.equal(await render.stop(), 0);
  });

  it('fails without writing when the first render fails, and names a missing option (exit 2)', async () => {
    const broken = join(temp.path, 'broken.liquid');
    await writeFile(broken, '{{ config.nope }}\n');
    const out = join(temp.path, 'never.conf');
    const run = startNodeProcess(CONFBUS_BIN, [
      'render',
      `--template=${broken}`,
      `--out=${out}`,
      '--once',
      '--spring.application.name=proxy',
      `--spring.cloud.config.uri=${server.url}`,
    ]);
    assert.equal(await run.exited, 1);
    assert.match(run.stderr.join('\n'), /broken\.liquid: undefined variable: config\.nope, line:1/);
    await assert.rejects(stat(out), /ENOENT/);

    const missing = startNodeProcess(CONFBUS_BIN, ['render', `--out=${out}`]);
    assert.equal(await missing.exited, 2);
    assert.match(missing.stderr.join('\n'), /confbus render needs '--template=FILE'/);
  });
});
