/** The `confbus` command as users run it: a real child process. */
import assert from 'node:assert/strict';
import { access, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '../../server/src/node-flags.ts';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { createGitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const confbus = fileURLToPath(new URL('../bin/confbus.js', import.meta.url));
const temps: Array<{ remove: () => Promise<void> }> = [];

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('confbus-cli-');
  temps.push(dir);
  return dir.path;
}

describe('confbus command', () => {
  after(async () => {
    await stopAllNodeProcesses();
    await Promise.all(temps.map((t) => t.remove()));
  });

  it('serves the embedded sample repository with confbus.server.sample-repository=true', async () => {
    const cwd = await tempDir();
    const server = startNodeProcess(
      confbus,
      ['server', '--server.port=0', '--server.address=127.0.0.1', '--confbus.server.sample-repository=true'],
      {},
      { cwd },
    );
    const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    await server.waitForLine(/Try: /, 5_000);
    await access(join(cwd, '.confbus/sample-config-repo/.git'));
    const env = (await (await fetch(`${base}/sample/dev`)).json()) as {
      propertySources: Array<{ name: string; source: Record<string, unknown> }>;
    };
    const first = env.propertySources[0];
    assert.match(first?.name ?? '', /sample-dev\.yml$/);
    assert.equal(first?.source['group.profile'], 'dev');
    const yml = await (await fetch(`${base}/sample-dev.yml`)).text();
    assert.match(yml, /greeting: hello from the dev document of sample.yml/);
    assert.equal(await server.stop(), 0);
  });

  it("warns when Node was started without the server's flags, which npm start gives", async () => {
    const root = fileURLToPath(new URL('../../..', import.meta.url));
    const { scripts } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    assert.ok(
      scripts.start?.startsWith(`node ${SERVER_NODE_FLAGS.join(' ')} packages/cli/bin/confbus.js server`),
      scripts.start,
    );
    // With the gate on (the sample repository is a Git mirror), with and without the flags.
    const args = [
      'server',
      '--server.port=0',
      '--server.address=127.0.0.1',
      '--confbus.server.sample-repository=true',
    ];
    const withFlags = startNodeProcess(
      confbus,
      args,
      {},
      { cwd: await tempDir(), nodeArgs: SERVER_NODE_FLAGS },
    );
    await withFlags.waitForLine(/Try: /, 30_000);
    const without = startNodeProcess(confbus, args, {}, { cwd: await tempDir() });
    const warning = JSON.parse(await without.waitForLine(/missingNodeFlags/, 30_000)) as {
      missingNodeFlags: string[];
    };
    assert.deepEqual(warning.missingNodeFlags, SERVER_NODE_FLAGS);
    // The warning comes right after the start-up line, before the sample's "Try:" lines.
    assert.ok(!withFlags.lines.some((l) => l.includes('missingNodeFlags')), withFlags.lines.join('\n'));
    assert.equal(await withFlags.stop(), 0);
    assert.equal(await without.stop(), 0);
  });

  it('exits non-zero naming an unknown or malformed setting', async () => {
    const unknown = startNodeProcess(confbus, ['server', '--server.prot=1']);
    assert.notEqual(await unknown.exited, 0);
    assert.match(unknown.stderr.join('\n'), /Unknown setting 'server\.prot'.*Did you mean 'server\.port'/);
    const malformed = startNodeProcess(confbus, ['server'], { SERVER_PORT: 'eighty' });
    assert.notEqual(await malformed.exited, 0);
    assert.match(
      malformed.stderr.join('\n'),
      /Setting 'server\.port' from environment: 'eighty' must be a whole number/,
    );
  });

  it('reads a YAML settings file given with --spring.config.location', async () => {
    const file = join(await tempDir(), 'settings.yml');
    await writeFile(file, 'server:\n  port: "nope"\n');
    const run = startNodeProcess(confbus, ['server', `--spring.config.location=${file}`]);
    assert.notEqual(await run.exited, 0);
    assert.match(run.stderr.join('\n'), /server\.port.*from file/);
  });

  it("binds Spring's relaxed names from a file, and warns about unknown environment variables", async () => {
    const remote = await createGitRemote();
    temps.push(remote);
    await remote.commit({ 'config/app.yml': 'greeting: from a search path\n' });
    const dir = await tempDir();
    const file = join(dir, 'application.yml');
    await writeFile(
      file,
      [
        'server:',
        '  port: 0',
        '  address: 127.0.0.1',
        'spring:',
        '  cloud:',
        '    config:',
        '      server:',
        '        git:',
        `          uri: ${remote.url}`,
        '          searchPaths[0]: config',
        '          cloneOnStart: true',
        '          order: 1',
        '',
      ].join('\n'),
    );
    const server = startNodeProcess(
      confbus,
      ['server'],
      { SPRING_CLOUD_CONFIG_SERVER_GIT_URL: 'x' },
      { cwd: dir },
    );
    const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    const env = (await (await fetch(`${base}/app/default`)).json()) as {
      propertySources: Array<{ source: Record<string, unknown> }>;
    };
    assert.equal(env.propertySources[0]?.source.greeting, 'from a search path');
    const output = server.stdout.join('\n');
    assert.match(
      output,
      /Environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_URL names no confbus setting \(ignored\)\. Did you mean SPRING_CLOUD_CONFIG_SERVER_GIT_URI/,
    );
    assert.match(output, /'spring\.cloud\.config\.server\.git\.order' \(from file\) is a Spring setting/);
    assert.equal(await server.stop(), 0);
  });

  it('sample-client warns about a mistyped SPRING_ variable and logs its start-up line', async () => {
    const client = startNodeProcess(
      confbus,
      [
        'sample-client',
        '--server.port=0',
        '--spring.application.name=sample',
        '--spring.cloud.config.uri=http://user:pa55word@127.0.0.1:1',
      ],
      { SPRING_PROFILES_ACTIV: 'dev' },
      { cwd: await tempDir() },
    );
    await client.waitForLine(/Listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    const lines = client.stdout.map(
      (line) => JSON.parse(line) as { level: number; msg: string; uri?: string[] },
    );
    assert.ok(
      lines.some(
        (line) =>
          line.level === 40 &&
          line.msg ===
            'Environment variable SPRING_PROFILES_ACTIV names no confbus setting (ignored). Did you mean SPRING_PROFILES_ACTIVE (spring.profiles.active)?',
      ),
      client.stdout.join('\n'),
    );
    const started = lines.filter((line) => line.msg.startsWith('Config client started'));
    assert.deepEqual(
      started.map((line) => [line.msg, line.uri]),
      [
        [
          'Config client started for sample (profiles default) from local settings only',
          ['http://user:******@127.0.0.1:1'],
        ],
      ],
    );
    assert.ok(!client.stdout.join('\n').includes('pa55word'));
    await client.stop();
  });

  it("starts from a settings file written as Spring's reference writes it (camelCase and kebab mixed)", async () => {
    const remote = await createGitRemote();
    temps.push(remote);
    await remote.commit({ 'orders/orders.yml': 'greeting: from orders/\n' });
    const dir = await tempDir();
    await writeFile(
      join(dir, 'application.yml'),
      [
        'server:',
        '  port: 0',
        '  address: 127.0.0.1',
        'spring:',
        '  application:',
        '    name: configserver',
        '  cloud:',
        '    config:',
        '      server:',
        '        git:',
        `          uri: ${remote.url}`,
        "          searchPaths: '{application}'",
        '          default-label: master',
        '          cloneOnStart: true',
        '          force-pull: true',
        '          refreshRate: 5',
        '          timeout: 10',
        '          skipSslValidation: false',
        'management:',
        '  endpoints:',
        '    web:',
        '      exposure:',
        '        include: "*"',
        '',
      ].join('\n'),
    );
    const server = startNodeProcess(confbus, ['server'], {}, { cwd: dir });
    const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    const env = (await (await fetch(`${base}/orders/default`)).json()) as {
      propertySources: Array<{ source: Record<string, unknown> }>;
    };
    assert.equal(env.propertySources[0]?.source.greeting, 'from orders/');
    const output = server.stdout.join('\n');
    for (const key of ['management.endpoints.web.exposure.include']) {
      assert.match(
        output,
        new RegExp(`${key.replace(/\./g, '\\.')}' \\(from file\\) is a Spring setting`),
        key,
      );
    }
    assert.equal(await server.stop(), 0);
  });

  it('refuses a security-relevant Spring setting it does not implement, and names a value out of range', async () => {
    const ssh = startNodeProcess(confbus, ['server'], {
      SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST: 'vault.example.com',
    });
    assert.notEqual(await ssh.exited, 0);
    assert.match(
      ssh.stderr.join('\n'),
      /SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST' \(from environment\) is a Spring setting that confbus does not implement \(refusing to start without it\)/,
    );
    const range = startNodeProcess(confbus, ['server', '--server.port=99999']);
    assert.notEqual(await range.exited, 0);
    assert.match(
      range.stderr.join('\n'),
      /Setting 'server\.port' from argument: '99999' must be between 0 and 65535/,
    );
  });

  it('parses arguments strictly: --key value works, unknown options and stray words are errors', async () => {
    const cwd = await tempDir();
    const server = startNodeProcess(
      confbus,
      [
        'server',
        '--server.port',
        '0',
        '--server.address',
        '127.0.0.1',
        '--confbus.server.sample-repository',
        '--spring.cloud.config.server.git.cloneOnStart',
      ],
      {},
      { cwd },
    );
    await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    assert.equal(await server.stop(), 0);
    for (const [args, expected] of [
      [['server', '-p', '9000'], /unknown option '-p': settings are given as --key=value/],
      [['server', '9000'], /unexpected argument '9000'/],
      [['server', '--server.port'], /'--server\.port <value>' argument missing/],
      [['serve'], /unknown command 'serve'/],
    ] as const) {
      const run = startNodeProcess(confbus, args);
      assert.equal(await run.exited, 2, args.join(' '));
      assert.match(run.stderr.join('\n'), expected);
      assert.match(run.stderr.join('\n'), /Usage: confbus <command>/);
    }
  });

  it('answers --version and -h', async () => {
    const { version } = JSON.parse(
      await readFile(fileURLToPath(new URL('../package.json', import.meta.url)), 'utf8'),
    ) as { version: string };
    for (const args of [['--version'], ['server', '--version']]) {
      const run = startNodeProcess(confbus, args);
      assert.equal(await run.exited, 0);
      assert.equal(run.stdout.join('\n').trim(), `confbus ${version}`);
    }
    for (const args of [['-h'], ['--help'], ['server', '-h']]) {
      const run = startNodeProcess(confbus, args);
      assert.equal(await run.exited, 0);
      assert.match(run.stdout.join('\n'), /--server\.port=<integer> \(default: 8888\)/);
    }
  });

  it('prints help with every server setting', async () => {
    const help = startNodeProcess(confbus, ['help']);
    assert.equal(await help.exited, 0);
    const text = help.stdout.join('\n');
    assert.match(text, /--spring\.cloud\.config\.server\.git\.uri=/);
    assert.match(text, /--server\.port=<integer> \(default: 8888\)/);
    assert.match(text, /Client settings[\s\S]*--spring\.cloud\.config\.fail-fast=<boolean>/);
  });
});
