/** The native backend (spring.profiles.active=native) on real folders. */
import assert from 'node:assert/strict';
import { mkdir, rename, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { makeTempDir } from '@confbus/testkit/temp-dir';
import { resolveServerSettings } from '../../src/index.js';
import { NativeRepository } from '../../src/native/native-repository.js';
import { ServerOwnFiles } from '../../src/settings/server-own-files.js';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Body {
  version: string;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('native backend', () => {
  let folder: Awaited<ReturnType<typeof makeTempDir>>;
  let server: TestServer;
  const write = async (path: string, text: string) => {
    await mkdir(join(folder.path, path, '..'), { recursive: true });
    await writeFile(join(folder.path, path), text);
  };

  before(async () => {
    folder = await makeTempDir('confbus-native-');
    await write('base/application.yml', 'from: base\nshared: base\n');
    await write('base/foo.yml', 'foo: base\n');
    await write('base/foo-dev.properties', 'foo=dev\n');
    await write('base/release/foo.yml', 'foo: release-folder\n');
    await write('base/master/foo.yml', 'foo: master-folder\n');
    await write('extra/foo.yml', 'foo: extra\nextra: yes\n');
    await write('apps/foo/application.yml', 'per.app: foo\n');
    await write('base/nginx.conf', 'upstream ${foo};\n');
    await write('base/master/nginx.conf', 'the label folder comes after every location\n');
    server = await startGitTestServer({
      'spring.profiles.active': 'native',
      'spring.cloud.config.server.native.search-locations': [
        `file:${join(folder.path, 'base')}`,
        `file:${join(folder.path, 'extra')}/`,
        `file:${join(folder.path, 'apps')}/{application}`,
      ].join(','),
    });
  });

  after(async () => {
    await server?.stop();
    await folder?.remove();
  });

  const get = async (path: string): Promise<Body> => {
    const response = await server.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return response.json() as Body;
  };

  it('serves the folders with Git precedence: profiles, label folder, later locations, placeholders', async () => {
    const body = await get('/foo/dev');
    const names = body.propertySources.map((source) => source.name);
    const file = (path: string) => `file:${join(folder.path, path)}`;
    assert.ok(names.includes(file('base/foo-dev.properties')), names.join('\n'));
    assert.ok(names.includes(file('apps/foo/application.yml')), 'placeholder location');
    assert.ok(names.includes(file('base/master/foo.yml')), 'default label sub-folder');
    assert.equal(names.indexOf(file('base/foo-dev.properties')) < names.indexOf(file('base/foo.yml')), true);
    const yml = await server.get('/foo-dev.yml');
    assert.match(yml.body, /^foo: dev$/m, 'the profile file wins');
    assert.match(yml.body, /^extra: true$/m);
  });

  it('takes the label from a sub-folder of each location', async () => {
    const names = (await get('/foo/default/release')).propertySources.map((source) => source.name);
    assert.ok(names.includes(`file:${join(folder.path, 'base/release/foo.yml')}`));
    assert.ok(!names.includes(`file:${join(folder.path, 'base/master/foo.yml')}`));
  });

  it('serves an edit on the next request, without a restart', async () => {
    const before = await get('/foo/default');
    await write('base/application.yml', 'from: edited\nshared: base\n');
    const after = await get('/foo/default');
    assert.notEqual(after.version, before.version);
    const application = after.propertySources.find((source) => source.name.endsWith('base/application.yml'));
    assert.equal(application?.source.from, 'edited');
  });

  it('serves plain-text resources from the folders, locations before label folders as in Spring', async () => {
    const response = await server.get('/foo/default/master/nginx.conf');
    assert.equal(response.status, 200, response.body);
    // base/ is searched before base/master/; ${foo} resolves from the environment, where the label folder wins.
    assert.equal(response.body, 'upstream master-folder;\n');
    assert.equal((await server.get('/foo/default/master/..%2F..%2Fetc%2Fpasswd')).status, 400);
  });

  it('refuses a classpath: location as a bad setting naming it', () => {
    assert.throws(
      () =>
        new NativeRepository({
          searchLocations: ['classpath:/config'],
          defaultLabel: 'master',
          addLabelLocations: true,
          cwd: folder.path,
          warn: () => undefined,
        }),
      (error: Error & { code?: string }) => {
        assert.equal(error.code, 'CONFBUS_BAD_SETTING');
        assert.match(
          error.message,
          /search-locations: classpath:\/config: classpath: locations are not supported/,
        );
        return true;
      },
    );
  });

  describe("the server's own files", () => {
    it('are neither listed nor read: settings file, key store, through a linked folder, after a save by rename', async () => {
      const root = join(folder.path, 'own');
      await write('own/server/application.yml', 'encrypt.key: own-secret\n');
      await write('own/server/keys.jks', 'not really a key store');
      await write('own/server/app.yml', 'app: served\n');
      await write('own/server/.hidden/app.yml', 'hidden: yes\n');
      await symlink(join(root, 'server'), join(root, 'linked'));
      await symlink(join(root, 'server', 'app.yml'), join(root, 'server', 'link.yml'));
      const settings = resolveServerSettings({
        args: ['--encrypt.key-store.location=file:server/keys.jks'],
        env: {},
        file: { path: join(root, 'server', 'application.yml'), text: 'encrypt.key: own-secret\n' },
      });
      const ownFiles = await ServerOwnFiles.of(settings, root);
      assert.deepEqual(ownFiles.paths, [
        join(root, 'server', 'application.yml'),
        join(root, 'server', 'keys.jks'),
      ]);
      const repository = new NativeRepository({
        searchLocations: [`file:${join(root, 'server')}`, `file:${join(root, 'linked')}`],
        defaultLabel: 'master',
        addLabelLocations: false,
        cwd: root,
        ownFiles,
        warn: () => undefined,
      });
      const listed = async () => repository.listFiles((await repository.resolve(null)).commit);
      assert.deepEqual(
        await listed(),
        ['0/app.yml', '1/app.yml'],
        'neither own file, through either location',
      );
      for (const path of [
        '0/application.yml',
        '1/application.yml',
        '0/keys.jks',
        '0/.hidden/app.yml',
        '0/link.yml',
      ]) {
        assert.equal(await repository.readFile('', path), undefined, path);
      }
      assert.equal((await repository.readFile('', '1/app.yml'))?.toString(), 'app: served\n');
      // An editor that saves by rename puts a new file (a new inode) at the same path: still the server's.
      await writeFile(join(root, 'server', 'application.yml.tmp'), 'encrypt.key: edited-secret\n');
      await rename(join(root, 'server', 'application.yml.tmp'), join(root, 'server', 'application.yml'));
      assert.deepEqual(await listed(), ['0/app.yml', '1/app.yml']);
      assert.equal(await repository.readFile('', '0/application.yml'), undefined);
    });
  });
});
