/**
 * Spring Cloud Config's own tests of its Git repositories (JGitEnvironmentRepositoryIntegrationTests,
 * MultipleJGitEnvironmentRepository{,Integration}Tests, MultipleJGitEnvironmentLabelPlaceholderRepositoryTests)
 * and of its native backend (NativeEnvironmentRepositoryTests), ported to HTTP against confbus (main at 5.0.x).
 * Each case names the Spring test it comes from; backends.test.ts runs them. A case where confbus differs on
 * purpose says so in its name and asserts confbus's behaviour (the reason is in docs/coming-from-spring.md).
 */
import assert from 'node:assert/strict';
import { basename, dirname, relative } from 'node:path';
import { startGitHttpServer } from '@confbus/testkit/git-http';
import { selfSignedCertificate } from '@confbus/testkit/tls-certificate';
import {
  CONFIG_REPO,
  NATIVE_FOLDER,
  TEST1_REPO,
  type ServerIn,
  remoteWith,
  startServerIn,
} from './backend-fixtures.js';

export interface BackendCase {
  /** The Spring test (Class.method). */
  readonly spring: string;
  readonly run: () => Promise<void>;
}

const GIT = 'spring.cloud.config.server.git';
const NATIVE = 'spring.cloud.config.server.native';

interface Source {
  name: string;
  source: Record<string, unknown>;
}

async function environmentAt(
  server: ServerIn,
  path: string,
): Promise<{ label: string | null; propertySources: Source[] }> {
  const response = await fetch(`${server.base}${path}`);
  const body = await response.text();
  assert.equal(response.status, 200, `${path}: ${body}`);
  return JSON.parse(body) as { label: string | null; propertySources: Source[] };
}

async function sources(server: ServerIn, path: string): Promise<Source[]> {
  return (await environmentAt(server, path)).propertySources;
}

/** Starts a server in a folder holding `files`, runs `check`, and always stops it. */
async function withServer(
  files: Record<string, string>,
  settings: (cwd: string) => Record<string, string>,
  check: (server: ServerIn) => Promise<void>,
): Promise<void> {
  let server: ServerIn | undefined;
  try {
    server = await startServerIn(files, settings);
    await check(server);
  } finally {
    await server?.stop();
  }
}

/** A multiple-repository case: the default repository and test1, with `repos` settings. */
function multiRepo(
  spring: string,
  repos: (test1Uri: string) => Record<string, string>,
  path: string,
): BackendCase {
  return {
    spring,
    async run() {
      const [main, test1] = await Promise.all([remoteWith(CONFIG_REPO), remoteWith(TEST1_REPO, 'test1')]);
      try {
        await withServer(
          {},
          () => ({ [`${GIT}.uri`]: main.url, ...repos(test1.url) }),
          async (server) => {
            const found = await sources(server, path);
            assert.equal(found.length, 2, JSON.stringify(found));
            assert.ok(
              found.every((source) => source.name.startsWith(test1.url)),
              'served from test1',
            );
          },
        );
      } finally {
        await main.remove();
        await test1.remove();
      }
    },
  };
}

/**
 * A `{label}` in the uri (`{label}-labeltest-config-repo`, Spring's master-labeltest-config-repo): each path is
 * served from the master one, its application.yml alone.
 */
function labelPlaceholder(spring: string, paths: readonly string[]): BackendCase {
  return {
    spring,
    async run() {
      const files = { 'application.yml': 'info:\n  foo: bar\n' };
      const labelled = await remoteWith(files, 'master-labeltest-config-repo');
      try {
        const uri = labelled.url.replace('master-labeltest', '{label}-labeltest');
        await withServer(
          {},
          () => ({ [`${GIT}.uri`]: uri }),
          async (server) => {
            for (const path of paths) {
              const environment = await environmentAt(server, path);
              const names = environment.propertySources.map((source) => source.name);
              assert.deepEqual(names, [`${labelled.url}/application.yml`], path);
              // The request's label, echoed: none stays null (Spring's composite echoes the request).
              assert.equal(environment.label, path.split('/')[3] ?? null, path);
            }
          },
        );
      } finally {
        await labelled.remove();
      }
    },
  };
}

const gitCases: BackendCase[] = [
  {
    spring: 'MultipleJGitEnvironmentRepositoryIntegrationTests.defaultRepo',
    async run() {
      const main = await remoteWith(CONFIG_REPO);
      try {
        await withServer(
          {},
          () => ({ [`${GIT}.uri`]: main.url }),
          async (server) => {
            assert.equal((await sources(server, '/bar/staging/master')).length, 2);
          },
        );
      } finally {
        await main.remove();
      }
    },
  },
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepo',
    (uri) => ({ [`${GIT}.repos[test1].pattern`]: '*test1*', [`${GIT}.repos[test1].uri`]: uri }),
    '/test1-svc/staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithRefreshRate',
    (uri) => ({
      [`${GIT}.repos[test1].pattern`]: '*test1*',
      [`${GIT}.repos[test1].uri`]: uri,
      [`${GIT}.refresh-rate`]: '30',
    }),
    '/test1-svc/staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithProfile',
    (uri) => ({ [`${GIT}.repos[test1].pattern`]: '*/staging', [`${GIT}.repos[test1].uri`]: uri }),
    '/test1-svc/staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithProfileDefaultPatterns',
    (uri) => ({ [`${GIT}.repos[test1].pattern`]: '*/staging', [`${GIT}.repos[test1].uri`]: uri }),
    '/test1-svc/staging,cloud/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithProfiles',
    (uri) => ({
      [`${GIT}.repos[test1].pattern[0]`]: '*/staging,*',
      [`${GIT}.repos[test1].pattern[1]`]: '*/*,staging',
      [`${GIT}.repos[test1].pattern[2]`]: '*/staging',
      [`${GIT}.repos[test1].uri`]: uri,
    }),
    '/test1-svc/cloud,staging/master',
  ),
  // The same mappings in the dotted spelling (one entry whichever spelling, as Boot binds them).
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepo (dotted keys)',
    (uri) => ({ [`${GIT}.repos.test1.pattern`]: '*test1*', [`${GIT}.repos.test1.uri`]: uri }),
    '/test1-svc/staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithProfileDefaultPatterns (dotted keys)',
    (uri) => ({ [`${GIT}.repos.test1.pattern`]: '*/staging', [`${GIT}.repos.test1.uri`]: uri }),
    '/test1-svc/staging,cloud/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithProfiles (dotted keys)',
    (uri) => ({
      [`${GIT}.repos.test1.pattern`]: '*/staging,*,*/*,staging,*/staging',
      [`${GIT}.repos.test1.uri`]: uri,
    }),
    '/test1-svc/cloud,staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.mappingRepoWithJustUri',
    (uri) => ({ [`${GIT}.repos.test1-svc.uri`]: uri }),
    '/test1-svc/staging/master',
  ),
  multiRepo(
    'MultipleJGitEnvironmentRepositoryIntegrationTests.patternMatchingShortcutSyntax',
    (uri) => ({ [`${GIT}.repos.test1-svc`]: uri }),
    '/test1-svc/staging/master',
  ),
  {
    spring:
      'ConfigServerTestUtils.prepareLocalRepo (every JGit test): `file:./relative`, `file:/absolute`, relative',
    async run() {
      const main = await remoteWith(CONFIG_REPO);
      try {
        const uris: Array<(cwd: string) => string> = [
          (cwd) => `file:./${relative(cwd, main.path)}`,
          () => `file:${main.path}`,
          (cwd) => relative(cwd, main.path),
        ];
        for (const uriIn of uris) {
          let uri = '';
          await withServer(
            {},
            (cwd) => ({ [`${GIT}.uri`]: (uri = uriIn(cwd)) }),
            async (server) => {
              const found = await sources(server, '/bar/staging/master');
              // Named after the uri as configured, as Spring's EnvironmentCleaner names them.
              assert.deepEqual(
                found.map((source) => source.name),
                [`${uri}/bar.properties`, `${uri}/application.yml`],
              );
            },
          );
        }
      } finally {
        await main.remove();
      }
    },
  },
  labelPlaceholder('MultipleJGitEnvironmentLabelPlaceholderRepositoryTests.defaultRepo, missingRepo', [
    '/bar/staging/master',
    '/missing-config-repo/staging/master',
  ]),
  labelPlaceholder('MultipleJGitEnvironmentLabelPlaceholderRepositoryTests.defaultLabelRepo', [
    '/bar/staging',
  ]),
  {
    spring:
      'MultipleJGitEnvironmentRepository.findOne: with try-master-branch=false, no master fallback (404)',
    async run() {
      const labelled = await remoteWith({ 'application.yml': 'a: b\n' }, 'master-labeltest-config-repo');
      try {
        const uri = labelled.url.replace('master-labeltest', '{label}-labeltest');
        await withServer(
          {},
          () => ({ [`${GIT}.uri`]: uri, [`${GIT}.try-master-branch`]: 'false' }),
          async (server) => {
            const response = await fetch(`${server.base}/bar/staging`);
            assert.equal(response.status, 404, await response.text());
          },
        );
      } finally {
        await labelled.remove();
      }
    },
  },
  {
    // A deliberate difference (docs/coming-from-spring.md): Spring forces the default repository's `true` onto
    // every named repository; confbus keeps checking the certificates of one that sets `false` itself.
    spring:
      'MultipleJGitEnvironmentRepositoryTests.setSkipSslValidation (deliberate difference: an explicit false is kept)',
    async run() {
      const tls = await selfSignedCertificate();
      const main = await remoteWith(CONFIG_REPO);
      const test1 = await remoteWith(TEST1_REPO, 'test1');
      const http = await startGitHttpServer(dirname(test1.path), { tls });
      const httpsUri = http.url(basename(test1.path));
      try {
        const settings = () => ({
          [`${GIT}.uri`]: main.url,
          [`${GIT}.skip-ssl-validation`]: 'true',
          [`${GIT}.repos.checked.pattern`]: 'test1-svc',
          [`${GIT}.repos.checked.uri`]: httpsUri,
          [`${GIT}.repos.checked.skip-ssl-validation`]: 'false',
          [`${GIT}.repos.inherits.pattern`]: 'test2-svc',
          [`${GIT}.repos.inherits.uri`]: httpsUri,
        });
        await withServer({}, settings, async (server) => {
          // Its self-signed certificate is refused, so the default repository answers (as for any failure).
          const checked = await sources(server, '/test1-svc/staging/master');
          assert.deepEqual(
            checked.map((source) => source.name),
            [`${main.url}/application.yml`],
          );
          // A repository that sets nothing inherits skip-ssl-validation=true, as in Spring.
          const inherits = await sources(server, '/test2-svc/staging/master');
          assert.deepEqual(
            inherits.map((source) => source.name),
            [`${httpsUri}/application.yml`],
          );
        });
      } finally {
        await http.stop();
        await main.remove();
        await test1.remove();
      }
    },
  },
];

/** A native-backend case: Spring's test folder at `test/` in the server's working directory. */
function native(
  spring: string,
  settings: (cwd: string) => Record<string, string>,
  check: (server: ServerIn) => Promise<void>,
): BackendCase {
  return {
    spring,
    run: () =>
      withServer(
        prefixed('test/', NATIVE_FOLDER),
        (cwd) => ({ 'spring.profiles.active': 'native', ...settings(cwd) }),
        check,
      ),
  };
}

function prefixed(prefix: string, files: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).map(([file, text]) => [`${prefix}${file}`, text]));
}

const at = (cwd: string, pattern = '') => ({ [`${NATIVE}.search-locations`]: `file:${cwd}/test/${pattern}` });
const fooOf = async (server: ServerIn, path: string) =>
  (await sources(server, path)).map((s) => s.source.foo);

const nativeCases: BackendCase[] = [
  native('NativeEnvironmentRepositoryTests.prefixedWithFile', at, async (server) => {
    assert.equal((await sources(server, '/foo/development/master')).length, 2);
  }),
  native(
    "NativeEnvironmentRepositoryTests.prefixedWithFile (Spring's own `file:./src/test/resources/test`)",
    () => ({ [`${NATIVE}.search-locations`]: 'file:./test' }),
    async (server) => assert.equal((await sources(server, '/foo/development/master')).length, 2),
  ),
  native('NativeEnvironmentRepositoryTests.prefixedYaml, prefixedMultiDocProperties', at, async (server) => {
    for (const app of ['bar', 'baz']) {
      const found = await sources(server, `/${app}/development/master`);
      assert.equal(found.length, 2, app);
      assert.notEqual(found[0]!.name, found[1]!.name, 'gh-1778: the documents have names of their own');
    }
  }),
  native(
    'NativeEnvironmentRepositoryTests.placeholdersLabel, placeholdersNoTrailingSlash',
    (cwd) => at(cwd, '{label}'),
    async (server) => {
      assert.deepEqual(await fooOf(server, '/foo/development/dev'), ['dev_bar']);
    },
  ),
  native(
    'NativeEnvironmentRepositoryTests.placeholdersProfile, placeholdersProfiles',
    (cwd) => at(cwd, '{profile}/'),
    async (server) => {
      assert.deepEqual(await fooOf(server, '/foo/dev/master'), ['dev_bar']);
      assert.deepEqual(await fooOf(server, '/foo/dev,mysql/master'), ['mysql', 'dev_bar']);
    },
  ),
  native(
    'NativeEnvironmentRepositoryTests.placeholdersApplicationAndProfile, placeholdersApplicationWithPrefixAndProfile',
    (cwd) => at(cwd, '{profile}/{application}/'),
    async (server) => {
      assert.deepEqual(await fooOf(server, '/app/dev/master'), ['app']);
      assert.deepEqual(await fooOf(server, '/applicationxyz/dev/master'), ['default-app']);
    },
  ),
  native(
    'NativeEnvironmentRepositoryTests.locationAddLabelLocations',
    (cwd) => at(cwd, 'dev/'),
    async (server) => {
      const foo = await fooOf(server, '/foo/development/ignore');
      assert.equal(foo.length, 2);
      assert.notEqual(foo[0], 'dev_bar');
    },
  ),
  native(
    'NativeEnvironmentRepositoryTests.locationDontAddLabelLocations',
    (cwd) => ({ ...at(cwd, 'dev/'), [`${NATIVE}.add-label-locations`]: 'false' }),
    async (server) => assert.deepEqual(await fooOf(server, '/foo/development/ignore'), ['dev_bar']),
  ),
  native(
    'NativeEnvironmentRepositoryTests.locationAddMultipleLabelLocations',
    (cwd) => at(cwd, 'dev/'),
    async (server) => {
      assert.deepEqual(await fooOf(server, '/foo/development/ignore,applicationxyz'), [
        'app',
        'default-app',
        'dev_bar',
      ]);
    },
  ),
  native(
    'NativeEnvironmentRepositoryTests.locationNoDuplicates',
    (cwd) => ({ [`${NATIVE}.search-locations`]: `file:${cwd}/test/{profile},file:${cwd}/test/dev` }),
    async (server) => assert.equal((await sources(server, '/foo/dev/master')).length, 1),
  ),
  native(
    'NativeEnvironmentRepositoryTests.testDefaultLabel',
    (cwd) => ({ [`${NATIVE}.search-locations`]: `file:${cwd}/`, [`${NATIVE}.default-label`]: 'test' }),
    async (server) => assert.equal((await fooOf(server, '/foo/default'))[0], 'test_bar'),
  ),
  {
    spring: 'NativeConfigServerIntegrationTests.testConfigServerDoesNotReturnItsOwnConfiguration',
    async run() {
      // Native with its default search locations: the working directory holds the server's settings file.
      const settingsFile = [
        'spring.profiles.active: native',
        'spring.cloud.config.server.overrides.spring.cloud.config.enabled: true',
        'info.own: configuration',
        '',
      ].join('\n');
      const server = await startServerIn({ 'application.yml': settingsFile }, () => ({}), 'application.yml');
      try {
        const found = await sources(server, '/configserver/default');
        assert.deepEqual(
          found.map((source) => source.name),
          ['overrides'],
        );
      } finally {
        await server.stop();
      }
    },
  },
  {
    spring:
      'NativeEnvironmentRepositoryTests.locationPlaceholdersApplication, locationPlaceholdersMultipleApplication',
    run: () =>
      withServer(
        {
          'test/foo/foo.properties': 'foo=foo-folder\n',
          'test/bar/bar.properties': 'bar=bar-folder\n',
          'test/baz/baz.properties': 'baz=not-asked-for\n',
        },
        (cwd) => ({
          'spring.profiles.active': 'native',
          [`${NATIVE}.search-locations`]: `file:${cwd}/test/{application}`,
        }),
        async (server) => {
          const base = server.work.path;
          const names = async (path: string) => (await sources(server, path)).map((s) => s.name).sort();
          assert.deepEqual(await names('/foo/dev/master'), [`file:${base}/test/foo/foo.properties`]);
          // One location per application of the list.
          assert.deepEqual(await names('/foo,bar/dev/master'), [
            `file:${base}/test/bar/bar.properties`,
            `file:${base}/test/foo/foo.properties`,
          ]);
        },
      ),
  },
  {
    // Spring answers 500 (FailedToConstructEnvironmentException, SnakeYAML's "found duplicate key"); confbus
    // answers its error for a file that does not parse, naming the file and the line.
    spring: 'NativeEnvironmentRepositoryTests.duplicateYamlKeys',
    run: () =>
      withServer(
        { 'test/bad-syntax/application.yml': 'key: value\nkey: value\n' },
        (cwd) => ({
          'spring.profiles.active': 'native',
          [`${NATIVE}.search-locations`]: `file:${cwd}/test/bad-syntax`,
        }),
        async (server) => {
          const response = await fetch(`${server.base}/foo/master/default`);
          const body = await response.text();
          assert.ok(response.status >= 400, `${response.status} ${body}`);
          assert.match(body, /application\.yml/);
          assert.match(body, /line 2/i);
        },
      ),
  },
  native('NativeEnvironmentRepositoryTests.testImportPrefixedWithFile', at, async (server) => {
    assert.equal((await sources(server, '/import/default/master')).length, 3);
  }),
  {
    spring: 'NativeEnvironmentRepositoryTests.vanilla (default search locations: the working directory)',
    run: () =>
      withServer(
        NATIVE_FOLDER,
        () => ({ 'spring.profiles.active': 'native' }),
        async (server) => {
          assert.equal((await sources(server, '/foo/development/master')).length, 2);
        },
      ),
  },
  {
    spring: 'NativeEnvironmentRepositoryTests.emptySearchLocations, testImportEmptySearchLocations',
    run: () =>
      withServer(
        NATIVE_FOLDER,
        () => ({ 'spring.profiles.active': 'native', [`${NATIVE}.search-locations`]: '' }),
        async (server) => {
          assert.equal((await sources(server, '/foo/development/master')).length, 2);
          assert.equal((await sources(server, '/import/default/master')).length, 3);
        },
      ),
  },
  native(
    'NativeEnvironmentRepositoryTests.testImportWithoutPrefix',
    () => ({ [`${NATIVE}.search-locations`]: 'test' }),
    async (server) => assert.equal((await sources(server, '/import/default/master')).length, 3),
  ),
];

export const backendCases: readonly BackendCase[] = [...gitCases, ...nativeCases];
