/**
 * The composite backend (spring.profiles.active=composite) over HTTP with real members: two Git repositories
 * and a native folder, in Spring's order (a member's `order`, else its backend's default, listed order among equals), then a member that fails.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { type TestDatabase, createPostgresDatabase } from '@confbus/testkit/databases';
import { createGitRemote, type GitRemote } from '@confbus/testkit/git-remote';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';

interface Body {
  version: string | null;
  propertySources: Array<{ name: string; source: Record<string, unknown> }>;
}

describe('composite backend: git + native members', () => {
  let first: GitRemote;
  let second: GitRemote;
  let folders: TempDir;
  let server: TestServer;
  let skipping: TestServer;
  let failing: TestServer;

  before(async () => {
    first = await createGitRemote('first');
    await first.commit({ 'foo.yml': 'who: first\nonly.first: one\n' });
    second = await createGitRemote('second');
    await second.commit({ 'foo.yml': 'who: second\n' });
    folders = await makeTempDir('confbus-composite-');
    await mkdir(join(folders.path, 'native'));
    await writeFile(join(folders.path, 'native', 'foo.properties'), 'who=native\n');
    const members = {
      'spring.profiles.active': 'composite',
      'spring.cloud.config.server.composite[0].type': 'git',
      'spring.cloud.config.server.composite[0].uri': first.url,
      'spring.cloud.config.server.composite[0].basedir': join(folders.path, 'first-mirror'),
      'spring.cloud.config.server.composite[1].type': 'native',
      'spring.cloud.config.server.composite[1].search-locations': `file:${join(folders.path, 'native')}`,
      // An order of its own puts the second repository ahead of both.
      'spring.cloud.config.server.composite[2].type': 'git',
      'spring.cloud.config.server.composite[2].uri': second.url,
      'spring.cloud.config.server.composite[2].basedir': join(folders.path, 'second-mirror'),
      'spring.cloud.config.server.composite[2].order': '0',
    };
    server = await startGitTestServer(members);
    // Each server its own basedir: the skipping one keeps retrying its clone there in the background.
    const broken = (basedir: string) => ({
      'spring.profiles.active': 'composite',
      'spring.cloud.config.server.composite[0].type': 'native',
      'spring.cloud.config.server.composite[0].search-locations': `file:${join(folders.path, 'native')}`,
      'spring.cloud.config.server.composite[1].type': 'git',
      'spring.cloud.config.server.composite[1].uri': `file://${join(folders.path, 'no-such-repo.git')}`,
      'spring.cloud.config.server.composite[1].basedir': join(folders.path, basedir),
    });
    skipping = await startGitTestServer({
      ...broken('skipping-mirror'),
      'spring.cloud.config.server.fail-on-composite-error': 'false',
    });
    failing = await startGitTestServer(broken('failing-mirror'));
  });

  after(async () => {
    await server?.stop();
    await skipping?.stop();
    await failing?.stop();
    await first?.remove();
    await second?.remove();
    await folders?.remove();
  });

  it('serves the members in order; version null with several members', async () => {
    const response = await server.get('/foo/default');
    assert.equal(response.status, 200, response.body);
    const body = JSON.parse(response.body) as Body;
    assert.deepEqual(
      body.propertySources.map((source) => source.source['who']),
      ['second', 'first', 'native'],
    );
    assert.match(body.propertySources[0]!.name, /second\.git\/foo\.yml$/);
    assert.match(body.propertySources[2]!.name, /^file:.*native\/foo\.properties$/);
    assert.equal(body.version, null);
    const flat = await server.get('/foo-default.properties');
    assert.match(flat.body, /^who: second$/m);
    assert.match(flat.body, /^only\.first: one$/m);
  });

  it('a push to one member is served on the next request', async () => {
    await first.commit({ 'foo.yml': 'who: first\nonly.first: pushed\n' });
    const body = JSON.parse((await server.get('/foo/default')).body) as Body;
    assert.equal(body.propertySources[1]!.source['only.first'], 'pushed');
  });

  it('fail-on-composite-error=false skips a failing member; true fails the request', async () => {
    const skipped = await skipping.get('/foo/default');
    assert.equal(skipped.status, 200, skipped.body);
    const body = JSON.parse(skipped.body) as Body;
    assert.deepEqual(
      body.propertySources.map((source) => source.source['who']),
      ['native'],
    );
    // Health lists each member with its own status; skipping the broken one keeps the composite up.
    const health = JSON.parse((await skipping.get('/actuator/health')).body) as {
      status: string;
      components: { git: { details: { repositories: Record<string, { status: string }> } } };
    };
    const members = Object.entries(health.components.git.details.repositories)
      .filter(([name]) => name.includes('/composite['))
      .map(([name, member]) => [name.slice(name.indexOf('/') + 1), member.status]);
    assert.deepEqual(members, [
      ['composite[0] (native)', 'UP'],
      ['composite[1] (git)', 'DOWN'],
    ]);
    assert.equal(health.status, 'UP');
    const failed = await failing.get('/foo/default');
    assert.ok(failed.status >= 500, `${failed.status} ${failed.body}`);
  });
});

describe('composite backend: jdbc (PostgreSQL) + git members', () => {
  let db: TestDatabase;
  let remote: GitRemote;
  let folders: TempDir;
  let server: TestServer;

  before(async () => {
    db = await createPostgresDatabase();
    await db.execute(
      'CREATE TABLE PROPERTIES ("KEY" VARCHAR(2048), "VALUE" VARCHAR(4096), APPLICATION VARCHAR(128), PROFILE VARCHAR(128), LABEL VARCHAR(128))',
      "INSERT INTO PROPERTIES(APPLICATION, PROFILE, LABEL, \"KEY\", \"VALUE\") VALUES ('foo', 'default', 'master', 'who', 'jdbc')",
    );
    remote = await createGitRemote('members');
    await remote.commit({ 'foo.yml': 'who: git\n' });
    folders = await makeTempDir('confbus-composite-jdbc-');
    // The JDBC member is listed last, yet sorts first: JDBC's default order is Integer.MAX_VALUE - 10, the git
    // member's Integer.MAX_VALUE (as Spring 5.0.6 serves them: the differential test checks it).
    server = await startGitTestServer({
      'spring.profiles.active': 'composite',
      'spring.datasource.url': db.url,
      'spring.datasource.username': 'postgres',
      'spring.cloud.config.server.composite[0].type': 'git',
      'spring.cloud.config.server.composite[0].uri': remote.url,
      'spring.cloud.config.server.composite[0].basedir': join(folders.path, 'mirror'),
      'spring.cloud.config.server.composite[1].type': 'jdbc',
    });
  });

  after(async () => {
    await server?.stop();
    await remote?.remove();
    await folders?.remove();
    await db?.drop();
  });

  it('serves the JDBC rows first, then git; a row changed is served on the next request', async () => {
    const body = JSON.parse((await server.get('/foo/default/master')).body) as Body;
    assert.deepEqual(
      body.propertySources.map((source) => [source.name.replace(/^.*\//, ''), source.source['who']]),
      [
        ['foo-default', 'jdbc'],
        ['foo.yml', 'git'],
      ],
    );
    await db.execute('UPDATE PROPERTIES SET "VALUE" = \'changed\' WHERE "KEY" = \'who\'');
    const after = JSON.parse((await server.get('/foo/default/master')).body) as Body;
    assert.equal(after.propertySources[0]!.source['who'], 'changed');
  });
});
