/**
 * The real `confbus server`, started from a folder holding its own `application.yml` full of secrets, never serves
 * that file (issue 23, item 1; Spring: NativeConfigServerIntegrationTests.testConfigServerDoesNotReturnItsOwn-
 * Configuration): not with the native backend's default search locations (the working directory), not through a
 * `spring.config.location` inside a search location, not through a hard link, and not from the commits of a Git
 * repository whose work tree the server was started in.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { link, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { CONFBUS_BIN } from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const LISTENING = /Config server listening on http:\/\/127\.0\.0\.1:(\d+)/;
const SECRETS = ['Encrypt-Key-9f2c', 'Admin-Pass-41d7', 'Git-Pass-77ab', 'Rabbit-Pass-c3e0'];
const AUTH = `Basic ${Buffer.from(`admin:${SECRETS[1]}`).toString('base64')}`;

/** A server settings file holding every kind of secret a real one holds. */
function serverSettings(extra: string[] = []): string {
  return [
    'server:',
    '  port: 0',
    '  address: 127.0.0.1',
    `encrypt.key: ${SECRETS[0]}`,
    'spring:',
    '  security:',
    '    user:',
    '      name: admin',
    `      password: ${SECRETS[1]}`,
    '  rabbitmq:',
    `    password: ${SECRETS[3]}`,
    '  cloud.config.server.git:',
    `    password: ${SECRETS[2]}`,
    ...extra,
    '',
  ].join('\n');
}

async function startServer(cwd: string, args: string[] = []): Promise<string> {
  const child = startNodeProcess(CONFBUS_BIN, ['server', ...args], {}, { cwd });
  const line = await child.waitForLine(LISTENING, 60_000);
  return `http://127.0.0.1:${LISTENING.exec(line)?.[1]}`;
}

async function get(base: string, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`${base}${path}`, { headers: { authorization: AUTH } });
  return { status: response.status, body: await response.text() };
}

function assertNoSecret(body: string, what: string): void {
  for (const secret of SECRETS)
    assert.ok(!body.includes(secret), `${what} shows ${secret}: ${body.slice(0, 400)}`);
}

describe('the server never serves the files it was configured from', () => {
  let temp: Awaited<ReturnType<typeof makeTempDir>>;

  before(async () => {
    temp = await makeTempDir('confbus-own-files-');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await temp?.remove();
  });

  it('native backend, default search locations (the working directory): ./application.yml is not served', async () => {
    const work = join(temp.path, 'native-default');
    await mkdir(join(work, 'config'), { recursive: true });
    await writeFile(join(work, 'application.yml'), serverSettings(['  profiles.active: native']));
    await writeFile(join(work, 'config', 'application.yml'), 'shared: from-config\n');
    await writeFile(join(work, 'app.yml'), 'greeting: hello\n');
    const base = await startServer(work);

    const anything = await get(base, '/anything/default');
    assert.equal(anything.status, 200, anything.body);
    assertNoSecret(anything.body, '/anything/default');
    const names = (
      JSON.parse(anything.body) as { propertySources: Array<{ name: string }> }
    ).propertySources.map((source) => source.name);
    assert.deepEqual(names, [`file:${join(work, 'config', 'application.yml')}`], 'the other files still are');
    const app = await get(base, '/app/default');
    assert.match(app.body, /"greeting":"hello"/);
    assertNoSecret(app.body, '/app/default');
    for (const path of [
      '/anything-default.yml',
      '/anything-default.properties',
      '/app/default/master/application.yml',
    ]) {
      const answer = await get(base, path);
      assertNoSecret(answer.body, path);
    }
  });

  it('native backend, spring.config.location inside a search location, and a hard link to it', async () => {
    const work = join(temp.path, 'native-location');
    await mkdir(join(work, 'conf'), { recursive: true });
    await writeFile(join(work, 'conf', 'server.yml'), serverSettings(['  profiles.active: native']));
    await link(join(work, 'conf', 'server.yml'), join(work, 'conf', 'shared.yml'));
    await writeFile(join(work, 'conf', 'orders.yml'), 'orders.limit: 10\n');
    const base = await startServer(work, [
      '--spring.config.location=conf/server.yml',
      '--spring.cloud.config.server.native.search-locations=file:./conf/',
    ]);
    for (const path of ['/server/default', '/shared/default', '/server/default/master/server.yml']) {
      const answer = await get(base, path);
      assertNoSecret(answer.body, path);
    }
    assert.match((await get(base, '/orders/default')).body, /"orders\.limit":10/);
  });

  // Spring's own form of a local uri is `file:./`: read under the working directory, it must be known as the
  // same checkout, so its committed settings file is hidden as with an absolute file:// uri.
  for (const [form, uriOf] of [
    ['a file:// uri', (work: string) => pathToFileURL(work).href],
    ["Spring's file:./ uri", () => 'file:./'],
  ] as const) {
    it(`Git (${form}): started in its own configuration checkout, the committed application.yml is served from no commit`, async () => {
      const work = join(temp.path, `checkout-${form.length}`);
      await mkdir(work);
      const git = (...args: string[]) =>
        execFileSync('git', args, {
          cwd: work,
          env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' },
        });
      git('init', '--quiet', '--initial-branch=master');
      await writeFile(
        join(work, 'application.yml'),
        serverSettings([`    uri: ${uriOf(work)}`, `    basedir: ${join(`${work}-mirror`)}`]),
      );
      await writeFile(join(work, 'app.yml'), 'greeting: committed\n');
      git('add', '.');
      git('-c', 'user.name=t', '-c', 'user.email=t@confbus.invalid', 'commit', '--quiet', '-m', 'config');
      const base = await startServer(work);

      const app = await get(base, '/app/default');
      assert.equal(app.status, 200, app.body);
      assert.match(app.body, /"greeting":"committed"/, 'the rest of the repository is served');
      assertNoSecret(app.body, '/app/default');
      for (const path of [
        '/application/default',
        '/app/default/master/application.yml',
        '/app-default.yml',
      ]) {
        const answer = await get(base, path);
        assertNoSecret(answer.body, path);
      }
    });
  }
});
