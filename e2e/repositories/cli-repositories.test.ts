/**
 * The real `confbus server` CLI with a YAML settings file: named repositories with YAML-list patterns, one behind
 * basic auth whose password comes from an environment variable through `${...}` (as docs/repositories.md writes
 * it), one with an `{application}` uri (a repository per application), overrides with mixed-case keys, and the
 * native backend on a real folder.
 */
import assert from 'node:assert/strict';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { type GitHttpServer, startGitHttpServer } from '@confbus/testkit/git-http';
import { type GitRemote, createGitRemote } from '@confbus/testkit/git-remote';
import { type ConfbusProcess, getJson, startConfbusServer } from '@confbus/testkit/confbus-processes';
import { makeTempDir } from '@confbus/testkit/temp-dir';

type TempDir = Awaited<ReturnType<typeof makeTempDir>>;
interface Body {
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('confbus server CLI: repositories, overrides, native', () => {
  let work: TempDir;
  let fallback: GitRemote;
  let orders: GitRemote;
  let payments: GitRemote;
  const perApplication: GitRemote[] = [];
  let paymentsHttp: GitHttpServer;
  const paymentsToken = 'pay-T0ken-from-env';
  let server: ConfbusProcess | undefined;
  let native: ConfbusProcess | undefined;

  before(async () => {
    work = await makeTempDir('confbus-cli-repos-');
    fallback = await createGitRemote('fallback');
    orders = await createGitRemote('orders');
    await fallback.commit({ 'application.yml': 'from: fallback\n' });
    await orders.commit({ 'application.yml': 'from: orders\n' });
    // team-alpha.git and team-beta.git side by side, for `uri: .../{application}.git`.
    await mkdir(join(work.path, 'per-application'));
    for (const name of ['team-alpha', 'team-beta']) {
      const remote = await createGitRemote(name);
      await remote.commit({ 'application.yml': `from: ${name}\n` });
      await symlink(remote.path, join(work.path, 'per-application', `${name}.git`));
      perApplication.push(remote);
    }
    payments = await createGitRemote('payments');
    await payments.commit({ 'application.yml': 'from: payments\n' });
    paymentsHttp = await startGitHttpServer(dirname(payments.path), {
      auth: { username: 'deploy', password: paymentsToken },
    });
    await writeFile(
      join(work.path, 'server.yml'),
      [
        'spring:',
        '  cloud:',
        '    config:',
        '      server:',
        '        overrides:',
        '          featureFlag: forced',
        '        git:',
        '          repos:',
        '            orders:',
        `              uri: ${orders.url}`,
        '              pattern:',
        '                - orders*',
        '                - billing/prod',
        '            payments:',
        '              uri: ${PAYMENTS_GIT}/payments.git',
        '              pattern: payments*',
        '              username: deploy',
        '              password: ${PAYMENTS_TOKEN}',
        '            teams:',
        `              uri: ${pathToFileURL(join(work.path, 'per-application')).href}/{application}.git`,
        '              pattern: team-*',
        '',
      ].join('\n'),
    );
    server = await startConfbusServer({
      gitUri: fallback.url,
      basedir: join(work.path, 'mirror'),
      cwd: work.path,
      args: [`--spring.config.location=${join(work.path, 'server.yml')}`],
      env: { PAYMENTS_GIT: `http://127.0.0.1:${paymentsHttp.port}`, PAYMENTS_TOKEN: paymentsToken },
    });
    const folder = join(work.path, 'native');
    await mkdir(join(folder, 'master'), { recursive: true });
    await writeFile(join(folder, 'app.yml'), 'from: folder\n');
    await writeFile(join(folder, 'master', 'app.yml'), 'label: master\n');
    native = await startConfbusServer({
      gitUri: 'unused',
      basedir: join(work.path, 'native-mirror'),
      cwd: work.path,
      args: [
        '--spring.profiles.active=native',
        `--spring.cloud.config.server.native.search-locations=file:${folder}`,
      ],
    });
  });

  after(async () => {
    await server?.process.stop();
    await native?.process.stop();
    await paymentsHttp?.stop();
    await Promise.all([fallback, orders, payments, ...perApplication].map((remote) => remote?.remove()));
    await work?.remove();
  });

  const sources = async (base: string, path: string) => {
    const { status, body } = await getJson(`${base}${path}`);
    assert.equal(status, 200, JSON.stringify(body));
    return (body as Body).propertySources;
  };

  it('routes by the YAML-list patterns and serves the overrides first, key case kept', async () => {
    const base = (server as ConfbusProcess).url;
    const ordersSources = await sources(base, '/orders-api/default');
    assert.deepEqual(ordersSources[0], { name: 'overrides', source: { featureFlag: 'forced' } });
    assert.equal(ordersSources[1]?.name, `${orders.url}/application.yml`);
    assert.equal((await sources(base, '/billing/prod'))[1]?.name, `${orders.url}/application.yml`);
    assert.equal((await sources(base, '/billing/dev'))[1]?.name, `${fallback.url}/application.yml`);
  });

  it("takes a named repository's uri and password from the environment through ${...}, never showing the password", async () => {
    const base = (server as ConfbusProcess).url;
    const paymentsSources = await sources(base, '/payments-api/default');
    assert.deepEqual(paymentsSources[1], {
      name: `http://127.0.0.1:${paymentsHttp.port}/payments.git/application.yml`,
      source: { from: 'payments' },
    });
    const sent = `Basic ${Buffer.from(`deploy:${paymentsToken}`).toString('base64')}`;
    assert.ok(paymentsHttp.authorizations.includes(sent), 'the password from PAYMENTS_TOKEN was sent');
    const output = (server as ConfbusProcess).process.lines.join('\n');
    assert.match(output, /repos\.payments\.password[^,}]*\*\*\*\*\*\*/, 'the summary lists it masked');
    assert.ok(!output.includes(paymentsToken), 'the password is never in the output');
  });

  it('serves each application from its own repository through an {application} uri', async () => {
    const base = (server as ConfbusProcess).url;
    for (const name of ['team-alpha', 'team-beta']) {
      const [, first] = await sources(base, `/${name}/default`); // after the overrides
      assert.deepEqual(first?.source, { from: name });
      assert.match(first?.name ?? '', new RegExp(`/per-application/${name}\\.git/application\\.yml$`));
    }
    // No team-gamma repository: the request goes on to the default repository, as in Spring.
    const [, gamma] = await sources(base, '/team-gamma/default');
    assert.equal(gamma?.name, `${fallback.url}/application.yml`);
  });

  it('serves a folder with the native profile, label sub-folder first', async () => {
    const base = (native as ConfbusProcess).url;
    const names = (await sources(base, '/app/default')).map((source) => source.name);
    assert.deepEqual(names, [
      `file:${join(work.path, 'native', 'master', 'app.yml')}`,
      `file:${join(work.path, 'native', 'app.yml')}`,
    ]);
  });
});
