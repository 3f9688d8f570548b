/**
 * Spring Cloud Config's own tests of plain-text resources, ported to HTTP against confbus: ResourceControllerTests
 * and ResourceControllerIntegrationTests (spring-cloud-config-server, main at 5.0.x). Spring serves its
 * `classpath:/test` folder through the native backend, a label being a sub-folder; here the same layout is
 * written to a temporary folder and served by confbus's native backend (`file:` search locations), one server per
 * search-location pattern. `retrieve` is a GET, `binary` the same GET with `Accept: application/octet-stream`.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';
import { rawGet } from './ported-server.js';

/** Spring's src/test/resources/test, as far as these tests read it. */
const FOLDER: Record<string, string> = {
  'foo.properties': 'foo:test_bar\n',
  'dev/foo': 'foo: dev_bar\n',
  'dev/foo.properties': 'foo:dev_bar\n',
  'dev/placeholder.txt': 'foo: \\${foo}\n',
  'dev/spam/foo.txt': 'foo: dev_bar/spam\n',
  'dev/template.json': '{\n\t"foo": "${foo}"\n}\n',
  'dev/foo_enc': 'foo: üäö\n',
};

const BINARY = 'application/octet-stream';

describe("Spring's ResourceControllerTests over HTTP (native backend)", () => {
  let folder: TempDir;
  /** One server per search-location pattern Spring's tests set. */
  const servers: Record<string, TestServer> = {};

  before(async () => {
    folder = await makeTempDir('confbus-spring-resources-');
    for (const [file, text] of Object.entries(FOLDER)) {
      await mkdir(dirname(join(folder.path, file)), { recursive: true });
      await writeFile(join(folder.path, file), text);
    }
    for (const pattern of ['', '{application}/{label}', '{application}', '{label}', '{profile}']) {
      servers[pattern] = await startGitTestServer({
        'spring.profiles.active': 'native',
        'spring.cloud.config.server.native.search-locations': `file:${folder.path}/${pattern}`,
      });
    }
  });

  after(async () => {
    for (const server of Object.values(servers)) await server.stop();
    await folder?.remove();
  });

  const get = async (pattern: string, path: string, accept?: string) => {
    const response = await rawGet(servers[pattern]!.base, path, accept);
    return { status: response.status, body: response.body.replace(/\r?\n$/, '') };
  };
  const text = async (pattern: string, path: string, accept?: string) => {
    const response = await get(pattern, path, accept);
    assert.equal(response.status, 200, `${pattern} ${path}: ${response.body}`);
    return response.body;
  };

  it('templateReplacement (@Disabled in Spring: "FIXME: configdata")', async () => {
    assert.match(await text('', '/foo/bar/dev/template.json'), /^\{\s*"foo": "dev_bar"\s*\}$/);
  });

  it('templateReplacementNotForResolvePlaceholdersFalse, templateReplacementNotForBinary', async () => {
    const raw = /^\{\s*"foo": "\$\{foo\}"\s*\}$/;
    assert.match(await text('', '/foo/bar/dev/template.json?resolvePlaceholders=false'), raw);
    assert.match(await text('', '/foo/bar/dev/template.json', BINARY), raw);
  });

  it('escapedPlaceholder', async () => {
    assert.equal(await text('', '/foo/bar/dev/placeholder.txt'), 'foo: ${foo}');
  });

  it('charsetRightEncoding', async () => {
    assert.equal(await text('', '/foo_enc/bar/dev/foo_enc'), 'foo: üäö');
  });

  it('applicationAndLabelPlaceholdersWithoutSlash (and ForBinary)', async () => {
    assert.equal(await text('{application}/{label}', '/dev/bar/spam/foo.txt'), 'foo: dev_bar/spam');
    assert.equal(await text('{application}/{label}', '/dev/bar/spam/foo.txt', BINARY), 'foo: dev_bar/spam');
  });

  it('applicationPlaceholderWithSlash, applicationPlaceholderWithSlashNullLabel, nullLabelForBinary (and ForBinary)', async () => {
    for (const accept of [undefined, BINARY]) {
      assert.equal(
        await text('{application}', '/dev(_)spam/bar/foo.txt?useDefaultLabel', accept),
        'foo: dev_bar/spam',
      );
    }
  });

  it('labelPlaceholderWithSlash (and ForBinary)', async () => {
    assert.equal(await text('{label}', '/dev/bar/dev(_)spam/foo.txt'), 'foo: dev_bar/spam');
    assert.equal(await text('{label}', '/dev/bar/dev(_)spam/foo.txt', BINARY), 'foo: dev_bar/spam');
  });

  it('applicationPlaceholderStartsWithSlash, labelPlaceholderWithSlashAndDotDot, labelPlaceholderStartsWithSlash, pathWithSlashAndDotDot (and ForBinary)', async () => {
    for (const accept of [undefined, BINARY]) {
      for (const path of [
        '/(_)dev/bar/foo.txt?useDefaultLabel',
        '/dev/bar/..(_)spam/foo.txt',
        '/dev/bar/(_)spam/foo.txt',
        '/dev/bar/dev/../foo.txt',
      ]) {
        const { status } = await get('{label}', path, accept);
        assert.ok(status === 400 || status === 404, `${path} ${accept ?? ''}: ${status}`);
      }
    }
  });

  it('profilePlaceholderNullLabel, profilePlaceholderForBinaryNullLabel', async () => {
    // Spring's tests ask for `spam/foo.txt` with no label by calling the method; over HTTP its default-label
    // mapping (`/{name}/{profile}/{path:.*}?useDefaultLabel`) takes one segment, so a one-segment path here.
    for (const accept of [undefined, BINARY]) {
      assert.equal(await text('{profile}', '/bar/dev/foo?useDefaultLabel', accept), 'foo: dev_bar');
    }
  });

  it('labelWithSlash, labelWithSlashForResolvePlaceholdersFalse, labelWithSlashForBinary', async () => {
    assert.equal(await text('', '/foo/bar/dev(_)spam/foo.txt'), 'foo: dev_bar/spam');
    assert.equal(
      await text('', '/foo/bar/dev(_)spam/foo.txt?resolvePlaceholders=false'),
      'foo: dev_bar/spam',
    );
    assert.equal(await text('', '/foo/bar/dev(_)spam/foo.txt', BINARY), 'foo: dev_bar/spam');
  });

  it('resourceWithoutFileExtension', async () => {
    assert.equal(await text('', '/foo/bar/dev/foo'), 'foo: dev_bar');
  });

  it('resourceWithSlash, resourceWithSlashRequest, resourceWithSlashForResolvePlaceholdersFalse(Request), resourceWithSlashForBinary(Request)', async () => {
    assert.equal(await text('', '/foo/bar/dev/spam/foo.txt'), 'foo: dev_bar/spam');
    assert.equal(await text('', '/foo/bar/dev/spam/foo.txt?resolvePlaceholders=false'), 'foo: dev_bar/spam');
    assert.equal(await text('', '/foo/bar/dev/spam/foo.txt', BINARY), 'foo: dev_bar/spam');
  });

  it('invalidProfileTests', async () => {
    for (const accept of [undefined, BINARY]) {
      for (const profiles of ['bar,..,foo', 'bar,%2e%2e,foo', 'bar%2ffoo']) {
        const { status } = await get('', `/application/${profiles}/dev/template.json`, accept);
        assert.equal(status, 400, `${profiles} ${accept ?? ''}`);
      }
    }
  });

  it('resourceWithMissingLabel, resourceHttpDoesNotExist (ResourceControllerIntegrationTests)', async () => {
    assert.equal((await get('', '/foo/default/missing/foo.txt')).status, 404);
    assert.equal((await get('', '/foo/default/dev/doesNotExist.txt')).status, 404);
  });
});
