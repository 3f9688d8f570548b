/**
 * testkit's Maven helper on a tiny project (packaging `pom`, goal `validate`: no plugin, nothing to
 * download): a build is reused while the project's files are unchanged, a change builds again, and a broken
 * project fails naming itself and Maven's own words.
 */
import assert from 'node:assert/strict';
import { readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { buildMavenProject, javaToolchain } from '@confbus/testkit/maven';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const toolchain = javaToolchain();
const pom = (version: string) =>
  `<project xmlns="http://maven.apache.org/POM/4.0.0"><modelVersion>4.0.0</modelVersion>` +
  `<groupId>dev.confbus.test</groupId><artifactId>tiny</artifactId><version>${version}</version>` +
  `<packaging>pom</packaging></project>\n`;

describe('buildMavenProject', { skip: toolchain.ok ? false : `not run: ${toolchain.reason}` }, () => {
  let dir: { path: string; remove: () => Promise<void> };
  const quiet = { goals: ['validate'], log: () => undefined };
  const stamps = async () =>
    (await readdir(join(dir.path, 'target'))).filter((name) => name.startsWith('.confbus-build-')).sort();

  before(async () => {
    dir = await makeTempDir('confbus-maven-test-');
  });
  after(async () => {
    await dir?.remove();
  });

  it('builds once and reuses the build while the files are unchanged', async () => {
    await writeFile(join(dir.path, 'pom.xml'), pom('1'));
    const first = await buildMavenProject(dir.path, quiet);
    assert.equal(first.dir, dir.path);
    assert.equal(first.jar, undefined, 'a pom-packaged project has no jar');
    const [stamp] = await stamps();
    const writtenAt = (await stat(join(dir.path, 'target', stamp!))).mtimeMs;
    assert.deepEqual(await buildMavenProject(dir.path, quiet), first);
    assert.equal((await stat(join(dir.path, 'target', stamp!))).mtimeMs, writtenAt, 'not built again');
  });

  it('builds again when a file changes, and keys builds by goals too', async () => {
    await writeFile(join(dir.path, 'pom.xml'), pom('2'));
    await buildMavenProject(dir.path, quiet);
    await buildMavenProject(dir.path, { ...quiet, goals: ['-Dx=1', 'validate'] });
    assert.equal((await stamps()).length, 3);
  });

  it('fails naming the project and quoting Maven', async () => {
    await writeFile(join(dir.path, 'pom.xml'), '<project>not a pom');
    await assert.rejects(buildMavenProject(dir.path, quiet), (error: Error) => {
      assert.match(error.message, new RegExp(`Maven build of ${dir.path} \\(validate\\) failed`));
      assert.match(error.message, /pom\.xml/, "Maven's own lines are quoted");
      return true;
    });
  });

  it('rejects a directory without pom.xml', async () => {
    const empty = await makeTempDir('confbus-maven-empty-');
    await assert.rejects(buildMavenProject(empty.path, quiet), /is not a Maven project \(no pom\.xml\)/);
    await empty.remove();
  });
});
