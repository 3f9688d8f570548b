/**
 * Spring Cloud Config's tests of its composite backend (spring-cloud-config-server, main at 5.0.x), ported to HTTP
 * against confbus with real members: CompositeEnvironmentRepositoryTests (its mocked members become a Git remote,
 * a native folder, PostgreSQL rows and Redis hashes), CompositeIntegrationTests (Spring's config-repo and its
 * `composite` branch; a native folder stands in for the Subversion member, a backend confbus does not have) and
 * CompositUtilsTests. Each `it` names the Spring test it ports; docs/interop.md lists what is left out and why.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  type TestDatabase,
  type TestRedis,
  createPostgresDatabase,
  createRedisPrefix,
} from '@confbus/testkit/databases';
import type { GitRemote } from '@confbus/testkit/git-remote';
import { type TempDir, makeTempDir } from '@confbus/testkit/temp-dir';
import { type TestServer, startGitTestServer } from '../git-server-harness.js';
import { remoteWith, writeFolder } from './backend-fixtures.js';
import { type EnvironmentJson, V2, assertConfigEnabled } from './ported-server.js';

const COMPOSITE = 'spring.cloud.config.server.composite';
const FAIL_ON_COMPOSITE_ERROR = 'spring.cloud.config.server.fail-on-composite-error';
/** Spring's compositeconfigserver.yml. */
const OVERRIDE = { 'spring.cloud.config.server.overrides.spring.cloud.config.enabled': 'true' };

type Environment = EnvironmentJson & { state: string | null };

/** `composite[index].key=value` for each of a member's settings. */
function member(index: number, settings: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(settings).map(([key, value]) => [`${COMPOSITE}[${index}].${key}`, value]),
  );
}

function compositeServer(...members: Record<string, string>[]): Promise<TestServer> {
  return startGitTestServer(Object.assign({ 'spring.profiles.active': 'composite' }, ...members));
}

async function environmentOf(server: TestServer, path: string, accept?: string): Promise<Environment> {
  const response = await server.get(path, accept ? { accept } : {});
  assert.equal(response.status, 200, `${path}: ${response.body}`);
  return response.json() as Environment;
}

describe("Spring's CompositeEnvironmentRepositoryTests over HTTP", () => {
  let folders: TempDir;
  let git: GitRemote;
  let second: GitRemote;
  let db: TestDatabase;
  let redis: TestRedis;
  let app: string;

  before(async () => {
    folders = await makeTempDir('confbus-spring-composite-');
    redis = await createRedisPrefix();
    db = await createPostgresDatabase();
    // One application name for every member: the Redis hashes are the applications' names, so it carries the
    // test's prefix.
    app = `${redis.prefix}app`;
    git = await remoteWith({
      [`${app}.yml`]: 'p1: git\n',
      'application.yml': 'p5: git\n',
      'shared.txt': 'from git\n',
    });
    second = await remoteWith({ [`${app}.yml`]: 'p2: second\n' }, 'second');
    await writeFolder(join(folders.path, 'native'), {
      [`${app}-dev.properties`]: 'p3=native\n',
      [`${app}.properties`]: 'p4=native\n',
      'shared.txt': 'from native\n',
    });
    await redis.hset(`${app}-dev`, { p2: 'redis' });
  });

  after(async () => {
    await git?.remove();
    await second?.remove();
    await folders?.remove();
    await db?.drop();
    await redis?.drop();
  });

  const gitMember = (index: number, uri: string, settings: Record<string, string> = {}) =>
    member(index, {
      type: 'git',
      uri,
      basedir: join(folders.path, `mirror-${index}-${Math.random().toString(36).slice(2)}`),
      ...settings,
    });
  const nativeMember = (index: number, settings: Record<string, string> = {}) =>
    member(index, {
      type: 'native',
      'search-locations': `file:${join(folders.path, 'native')}`,
      ...settings,
    });

  it('testOrder', async () => {
    // Spring's three members, listed with orders 3, 2, 1: served lowest order first, each member's sources in
    // its own order. The lowest is a Redis member (four hashes: Spring lists each, empty when missing).
    const server = await compositeServer(
      gitMember(0, git.url, { order: '3' }),
      nativeMember(1, { order: '2' }),
      member(2, { type: 'redis', order: '1' }),
      { 'spring.data.redis.host': '127.0.0.1', 'spring.data.redis.port': '6379' },
    );
    try {
      const environment = await environmentOf(server, `/${app}/dev`);
      assert.deepEqual(
        environment.propertySources.map((source) => source.name.replace(/^.*\//, '')),
        [
          `redis:${app}-dev`,
          'redis:application-dev',
          `redis:${app}`,
          'redis:application',
          `${app}-dev.properties`,
          `${app}.properties`,
          `${app}.yml`,
          'application.yml',
        ],
      );
      assert.deepEqual(environment.propertySources[0]?.source, { p2: 'redis' });
      // getLocations: the members' locations in the same order, so a file in several is read from the first.
      const text = await server.get(`/${app}/dev/master/shared.txt`);
      assert.equal(text.status, 200, text.body);
      assert.equal(text.body, 'from native\n');
    } finally {
      await server.stop();
    }
  });

  it('testVersion', async () => {
    // One member: its version (the commit) and state; several: both null.
    const single = await compositeServer(gitMember(0, git.url));
    try {
      const environment = await environmentOf(single, `/${app}/dev/master`);
      assert.match(environment.version ?? '', /^[0-9a-f]{40}$/);
      assert.equal(environment.version, (await git.git('rev-parse', 'HEAD')).trim());
      assert.equal(environment.state, null);
    } finally {
      await single.stop();
    }
    const several = await compositeServer(gitMember(0, git.url), gitMember(1, second.url));
    try {
      const environment = await environmentOf(several, `/${app}/dev/master`);
      assert.equal(environment.propertySources.length, 3);
      assert.equal(environment.version, null);
      assert.equal(environment.state, null);
    } finally {
      await several.stop();
    }
  });

  // overridingCompositeEnvRepo_contextLoads: a Java bean replacing the composite; nothing HTTP can ask.

  it('testFailingSubordinateRepositorySkipped', async () => {
    // The member ahead (order 1) throws on every request, as Spring's TestFailingEnvironmentRepository does: a
    // JDBC member whose table does not exist. fail-on-composite-error=false serves the other member alone.
    const jdbc = {
      ...member(0, { type: 'jdbc', order: '1' }),
      'spring.datasource.url': db.url,
      'spring.datasource.username': 'postgres',
    };
    const skipping = await compositeServer(jdbc, gitMember(1, git.url, { order: '2' }), {
      [FAIL_ON_COMPOSITE_ERROR]: 'false',
    });
    try {
      const environment = await environmentOf(skipping, `/${app}/dev/master`);
      assert.deepEqual(
        environment.propertySources.map((source) => source.name.replace(/^.*\//, '')),
        [`${app}.yml`, 'application.yml'],
      );
    } finally {
      await skipping.stop();
    }
    // Not Spring's case, its counterpart: with the default (true) the member's error fails the request.
    const failing = await compositeServer(jdbc, gitMember(1, git.url, { order: '2' }));
    try {
      const response = await failing.get(`/${app}/dev/master`);
      assert.ok(response.status >= 500, `${response.status} ${response.body}`);
    } finally {
      await failing.stop();
    }
  });

  it('CompositeEnvironmentRepository.findOne: a lone member that fails fails the request, whatever the flag', async () => {
    // Spring's findOne calls a single member directly, outside the loop that skips failures: an empty answer
    // would hide the outage from every client.
    const lone = await compositeServer(
      {
        ...member(0, { type: 'jdbc' }),
        'spring.datasource.url': db.url,
        'spring.datasource.username': 'postgres',
      },
      { [FAIL_ON_COMPOSITE_ERROR]: 'false' },
    );
    try {
      const response = await lone.get(`/${app}/dev/master`);
      assert.equal(response.status, 503, response.body);
    } finally {
      await lone.stop();
    }
  });

  it('testFailOnErrorFlagFalseForGetLocations, testFailOnErrorFlagTrueForGetLocations', async () => {
    // A member whose locations cannot be found: a Git remote that does not exist. With
    // fail-on-composite-error=false its locations are left out and the others' are searched; with true the
    // request fails (Spring throws the RepositoryException; confbus answers 503, docs/coming-from-spring.md).
    const missing = `file://${join(folders.path, 'no-such-repo.git')}`;
    const skipping = await compositeServer(
      gitMember(0, missing, { order: '1' }),
      nativeMember(1, { order: '2' }),
      {
        [FAIL_ON_COMPOSITE_ERROR]: 'false',
      },
    );
    try {
      const found = await skipping.get(`/${app}/dev/master/shared.txt`);
      assert.equal(found.status, 200, found.body);
      assert.equal(found.body, 'from native\n');
      const absent = await skipping.get(`/${app}/dev/master/absent.txt`);
      assert.equal(absent.status, 404, absent.body);
    } finally {
      await skipping.stop();
    }
    const failing = await compositeServer(
      gitMember(0, missing, { order: '1' }),
      nativeMember(1, { order: '2' }),
    );
    try {
      const response = await failing.get(`/${app}/dev/master/shared.txt`);
      assert.equal(response.status, 503, response.body);
      assert.match(response.body, /CONFBUS_REPOSITORY_UNAVAILABLE/);
    } finally {
      await failing.stop();
    }
  });
});

/**
 * Spring's config-repo: `application.yml` and `bar.properties` on master, `bar.properties` reading
 * `foo: barconfig` on the `composite` branch. The native folder stands in for svn-config-repo: its
 * `composite/` label folder holds the `foo: bar` Spring's Subversion `composite` branch holds.
 */
describe("Spring's CompositeIntegrationTests over HTTP", () => {
  let folders: TempDir;
  let git: GitRemote;

  before(async () => {
    folders = await makeTempDir('confbus-spring-composite-it-');
    git = await remoteWith({ 'application.yml': 'info:\n  foo: bar\n', 'bar.properties': 'foo: bar\n' });
    await git.commit({ 'bar.properties': 'foo: barconfig\n' }, { branch: 'composite' });
    await writeFolder(join(folders.path, 'native-config-repo'), {
      'application.yml': 'info:\n  foo: native\n',
      'composite/bar.properties': 'foo: bar',
    });
  });

  after(async () => {
    await git?.remove();
    await folders?.remove();
  });

  const gitMember = (index: number, settings: Record<string, string> = {}) =>
    member(index, {
      type: 'git',
      uri: git.url,
      basedir: join(folders.path, `mirror-${index}-${Math.random().toString(36).slice(2)}`),
      ...settings,
    });
  const nativeMember = (index: number, settings: Record<string, string> = {}) =>
    member(index, {
      type: 'native',
      'search-locations': `file:${join(folders.path, 'native-config-repo')}`,
      ...settings,
    });

  /** contextLoads: the overrides, then the Git member, then the native one. */
  async function contextLoads(server: TestServer): Promise<void> {
    const environment = await environmentOf(server, '/foo/development', V2);
    assert.equal(environment.propertySources.length, 3, JSON.stringify(environment.propertySources));
    assert.match(environment.propertySources[1]?.name ?? '', /config-repo\.git\/application\.yml$/);
    assert.match(environment.propertySources[2]?.name ?? '', /native-config-repo\/application\.yml$/);
    assertConfigEnabled(environment);
  }

  async function resourceText(server: TestServer): Promise<string> {
    const response = await server.get('/foo/development/composite/bar.properties');
    assert.equal(response.status, 200, response.body);
    return response.body;
  }

  describe('StaticCompositeTests: composite[0] native order 2, composite[1] git order 1', () => {
    let server: TestServer;
    before(async () => {
      server = await compositeServer(nativeMember(0, { order: '2' }), gitMember(1, { order: '1' }), OVERRIDE);
    });
    after(async () => server?.stop());

    it('contextLoads', () => contextLoads(server));

    it('resourceEndpointsWork', async () => {
      // From the Git member: its order comes first.
      assert.equal(await resourceText(server), 'foo: barconfig\n');
    });
  });

  describe('ListTests: composite[0] git, composite[1] native, no order', () => {
    let server: TestServer;
    before(async () => {
      server = await compositeServer(gitMember(0), nativeMember(1), OVERRIDE);
    });
    after(async () => server?.stop());

    it('contextLoads', () => contextLoads(server));

    it('resourceEndpointsWork', async () => {
      // Equal orders keep the listed order: the Git member, twice.
      assert.equal(await resourceText(server), 'foo: barconfig\n');
      assert.equal(await resourceText(server), 'foo: barconfig\n');
    });
  });

  it('ReverseLocationOrderTest.resourceEndpointsWork (composite profile)', async () => {
    // Spring's test uses the git and subversion profiles together (not built in confbus: docs/repositories.md);
    // the same members as a composite, git first by its order, with reverse-location-order=true: the native
    // member's locations are searched first.
    const server = await compositeServer(nativeMember(0, { order: '2' }), gitMember(1, { order: '1' }), {
      'spring.cloud.config.server.reverse-location-order': 'true',
    });
    try {
      assert.equal(await resourceText(server), 'foo: bar');
    } finally {
      await server.stop();
    }
  });
});

describe("Spring's CompositUtilsTests over HTTP", () => {
  it('getCompositeTypeListFails', async () => {
    // composite[0] and composite[2] without composite[1]: Spring's binder refuses the list, so the server does
    // not start; confbus refuses it too, naming the missing member.
    const folders = await makeTempDir('confbus-spring-composite-gap-');
    try {
      await assert.rejects(
        compositeServer(
          member(0, { type: 'native', 'search-locations': `file:${folders.path}` }),
          member(2, { type: 'native', 'search-locations': `file:${folders.path}` }),
        ),
        /composite\[1\]/,
      );
    } finally {
      await folders.remove();
    }
  });
});
