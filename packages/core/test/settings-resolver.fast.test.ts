import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSettingsFile } from '../src/settings/settings-file.js';
import { resolveSettings, type SettingSpec, SettingsError, type UnsupportedSetting } from '@confbus/core';
import { effectiveSettings, environmentNamesFor } from '@confbus/core/internal';

const specs: SettingSpec[] = [
  { key: 'server.port', type: 'integer', default: 8888, description: 'port' },
  {
    key: 'spring.cloud.config.server.git.default-label',
    type: 'string',
    default: 'master',
    description: 'label',
  },
  { key: 'spring.rabbitmq.password', type: 'string', secret: true, description: 'pw' },
  { key: 'spring.rabbitmq.addresses', type: 'list', description: 'addresses' },
  { key: 'spring.cloud.bus.enabled', type: 'boolean', default: false, description: 'bus' },
];

describe('settings resolver', () => {
  it('orders sources: arguments over environment over file over defaults', () => {
    const file = {
      path: 'application.yml',
      text: 'server:\n  port: 7000\nspring:\n  cloud:\n    bus:\n      enabled: on\n',
    };
    const fromFile = resolveSettings(specs, { file }, { unknownKeys: 'error' });
    assert.equal(fromFile.get('server.port'), 7000);
    assert.equal(fromFile.get('spring.cloud.bus.enabled'), true);
    const fromEnv = resolveSettings(specs, { file, env: { SERVER_PORT: '7100' } }, { unknownKeys: 'error' });
    assert.equal(fromEnv.get('server.port'), 7100);
    assert.equal(fromEnv.sourceOf('server.port'), 'environment');
    const fromArgs = resolveSettings(
      specs,
      { file, env: { SERVER_PORT: '7100' }, args: ['server', '--server.port=7200'] },
      { unknownKeys: 'error' },
    );
    assert.equal(fromArgs.get('server.port'), 7200);
    assert.deepEqual(fromArgs.positionals, ['server']);
    assert.equal(resolveSettings(specs, {}, { unknownKeys: 'error' }).get('server.port'), 8888);
  });

  it('maps relaxed environment names, with and without dashes', () => {
    assert.deepEqual(environmentNamesFor('spring.cloud.config.server.git.default-label'), [
      'SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULTLABEL',
      'SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULT_LABEL',
    ]);
    // An index joins with one underscore, as Boot's SystemEnvironmentPropertyMapper maps it.
    assert.deepEqual(environmentNamesFor('a.b[0].c'), ['A_B_0_C']);
    assert.deepEqual(environmentNamesFor('features[0]'), ['FEATURES_0']);
    assert.deepEqual(environmentNamesFor('my-app.hosts[12].first-name'), [
      'MYAPP_HOSTS_12_FIRSTNAME',
      'MY_APP_HOSTS_12_FIRST_NAME',
    ]);
    const s = resolveSettings(
      specs,
      { env: { SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULT_LABEL: 'main' } },
      { unknownKeys: 'error' },
    );
    assert.equal(s.get('spring.cloud.config.server.git.default-label'), 'main');
  });

  it('reads lists from commas and YAML sequences', () => {
    const a = resolveSettings(
      specs,
      { args: ['--spring.rabbitmq.addresses=a:1, b:2'] },
      { unknownKeys: 'error' },
    );
    assert.deepEqual(a.list('spring.rabbitmq.addresses'), ['a:1', 'b:2']);
    const file = { path: 'f.yml', text: 'spring.rabbitmq.addresses:\n  - a:1\n  - b:2\n' };
    assert.deepEqual(
      resolveSettings(specs, { file }, { unknownKeys: 'error' }).list('spring.rabbitmq.addresses'),
      ['a:1', 'b:2'],
    );
  });

  it('rejects unknown keys with a suggestion, or keeps them for clients', () => {
    assert.throws(
      () => resolveSettings(specs, { args: ['--server.prot=1'] }, { unknownKeys: 'error' }),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.key === 'server.prot' &&
        /Did you mean 'server.port'/.test(error.message),
    );
    const kept = resolveSettings(specs, { args: ['--group.comment=hi'] }, { unknownKeys: 'keep' });
    assert.equal(kept.get('group.comment'), 'hi');
  });

  it('names the key of a malformed value and hides secrets', () => {
    assert.throws(
      () => resolveSettings(specs, { args: ['--server.port=eighty'] }, { unknownKeys: 'error' }),
      /Setting 'server.port' from argument: 'eighty' must be a whole number/,
    );
    const secretSpecs: SettingSpec[] = [
      { key: 'spring.rabbitmq.password', type: 'integer', secret: true, description: '' },
    ];
    assert.throws(
      () =>
        resolveSettings(
          secretSpecs,
          { args: ['--spring.rabbitmq.password=hunter2'] },
          { unknownKeys: 'error' },
        ),
      (error: unknown) =>
        error instanceof Error && !error.message.includes('hunter2') && error.message.includes('(hidden)'),
    );
  });

  it('reports the line of a broken settings file', () => {
    assert.throws(
      () =>
        resolveSettings(
          specs,
          { file: { path: 'bad.yml', text: 'server:\n  port: [1\n' } },
          { unknownKeys: 'error' },
        ),
      /Settings file bad.yml line \d+ is not valid YAML/,
    );
  });
});

describe("settings resolver: Spring's relaxed binding", () => {
  const relaxedSpecs: SettingSpec[] = [
    ...specs,
    { key: 'spring.cloud.config.server.git.search-paths', type: 'list', default: [], description: 'paths' },
    { key: 'spring.cloud.config.server.git.clone-on-start', type: 'boolean', description: 'clone' },
    { key: 'spring.cloud.config.server.git.repos', type: 'string', isPrefix: true, description: 'repos' },
  ];
  const unsupported: UnsupportedSetting[] = [
    { key: 'spring.cloud.config.server.git.private-key', effect: 'refuse', reason: 'no SSH keys.' },
    { key: 'spring.cloud.config.server.git.force-pull', effect: 'warn', reason: 'always forced.' },
    { key: 'spring.cloud.config.server.vault', isPrefix: true, effect: 'refuse', reason: 'git only.' },
  ];
  const resolve = (input: Parameters<typeof resolveSettings>[1]) =>
    resolveSettings(relaxedSpecs, input, { unknownKeys: 'error', unsupported });
  const paths = 'spring.cloud.config.server.git.search-paths';

  it('binds kebab, camelCase and underscore spellings of one key in arguments and the file', () => {
    for (const spelling of ['clone-on-start', 'cloneOnStart', 'clone_on_start', 'CloneOnStart']) {
      const s = resolve({ args: [`--spring.cloud.config.server.git.${spelling}=true`] });
      assert.equal(s.get('spring.cloud.config.server.git.clone-on-start'), true, spelling);
      assert.equal(s.get(`spring.cloud.config.server.git.${spelling}`), true, spelling);
    }
    const file = {
      path: 'application.yml',
      text: 'spring:\n  cloud:\n    config:\n      server:\n        git:\n          searchPaths: a,b\n          cloneOnStart: yes\n',
    };
    const s = resolve({ file });
    assert.deepEqual(s.list(paths), ['a', 'b']);
    assert.equal(s.get('spring.cloud.config.server.git.clone-on-start'), true);
    assert.deepEqual(
      s.entries().find(([key]) => key === paths),
      [paths, ['a', 'b']],
      'a declared setting is listed under its declared key',
    );
  });

  it('binds indexed list items in every source, a higher source replacing the whole list', () => {
    const file = {
      path: 'application.yml',
      text: 'spring.cloud.config.server.git:\n  search-paths:\n    - x\n    - w\n    - z\n',
    };
    assert.deepEqual(resolve({ file }).list(paths), ['x', 'w', 'z']);
    const args = ['--spring.cloud.config.server.git.searchPaths[1]=b', `--${paths}[0]=a`];
    assert.deepEqual(resolve({ file, args }).list(paths), ['a', 'b']);
    const env = {
      SPRING_CLOUD_CONFIG_SERVER_GIT_SEARCHPATHS_0_: 'e0',
      SPRING_CLOUD_CONFIG_SERVER_GIT_SEARCH_PATHS_1: 'e1',
    };
    const fromEnv = resolve({ file, env });
    assert.deepEqual(fromEnv.list(paths), ['e0', 'e1']);
    assert.equal(fromEnv.sourceOf(paths), 'environment');
    const properties = {
      path: 'settings.properties',
      text: `${paths}[0]=p0\n${paths}[1]=p1\nserver.port=7001\n`,
    };
    const fromProperties = resolve({ file: properties });
    assert.deepEqual(fromProperties.list(paths), ['p0', 'p1']);
    assert.equal(fromProperties.get('server.port'), 7001);
  });

  it('keeps map entries below a prefix setting under their own names', () => {
    const s = resolve({ args: ['--spring.cloud.config.server.git.repos.team-a.uri=file:///x'] });
    assert.equal(s.get('spring.cloud.config.server.git.repos.team-a.uri'), 'file:///x');
    assert.deepEqual(s.keysUnder('spring.cloud.config.server.git.repos.'), [
      'spring.cloud.config.server.git.repos.team-a.uri',
    ]);
  });

  it('binds a map key written in brackets (repos[test1].uri, as Boot does) as the same entry as its dotted one', () => {
    const repos = 'spring.cloud.config.server.git.repos';
    const file = {
      path: 'application.yml',
      text: `${repos}:\n  "[team-a]":\n    uri: from-file\n    pattern:\n      - a*\n`,
    };
    const s = resolve({ file, args: [`--${repos}[test1].pattern[0]=*test1*`, `--${repos}[test1].uri=t1`] });
    assert.deepEqual(s.keysUnder(`${repos}.`).sort(), [
      `${repos}.team-a.pattern[0]`,
      `${repos}.team-a.uri`,
      `${repos}.test1.pattern[0]`,
      `${repos}.test1.uri`,
    ]);
    assert.equal(s.get(`${repos}.test1.uri`), 't1');
    assert.equal(s.spellingOf(`${repos}.test1.uri`), `${repos}.test1.uri`);
    // One entry, whichever spelling: the higher source wins.
    assert.equal(
      resolve({ file, args: [`--${repos}.team-a.uri=from-arg`] }).get(`${repos}.team-a.uri`),
      'from-arg',
    );
    // An index is a list's, never a map key.
    assert.throws(() => resolve({ args: [`--${repos}[0].uri=x`] }), SettingsError);
  });

  it("binds environment variables below a map setting as Boot's SystemEnvironmentPropertySource does", () => {
    const s = resolve({
      env: {
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_URI: 'https://git.example/a.git',
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PASSWORD: 'pw',
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PATTERN_0: 'a*',
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_PROXY_HTTP_HOST: 'proxy',
        // Not below `repos` (an element boundary is needed) and nothing below `repos`: warned, not bound.
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOSITORY_URI: 'x',
        SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS: 'y',
      },
    });
    assert.deepEqual(s.keysUnder('spring.cloud.config.server.git.repos.').sort(), [
      'spring.cloud.config.server.git.repos.teama.password',
      'spring.cloud.config.server.git.repos.teama.pattern[0]',
      'spring.cloud.config.server.git.repos.teama.proxy.http.host',
      'spring.cloud.config.server.git.repos.teama.uri',
    ]);
    assert.equal(s.get('spring.cloud.config.server.git.repos.teamA.uri'), 'https://git.example/a.git');
    assert.equal(s.sourceOf('spring.cloud.config.server.git.repos.teama.uri'), 'environment');
    assert.deepEqual(
      s.warnings.map((warning) => warning.split(' names')[0]),
      [
        'Environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS',
        'Environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_REPOSITORY_URI',
      ],
    );
    // A higher source still wins for the same entry.
    const args = ['--spring.cloud.config.server.git.repos.teama.uri=from-arg'];
    const both = resolve({ args, env: { SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS_TEAMA_URI: 'from-env' } });
    assert.equal(both.get('spring.cloud.config.server.git.repos.teama.uri'), 'from-arg');
  });

  it('names unsupported Spring settings: a security-relevant one stops, a tuning one warns', () => {
    assert.throws(
      () => resolve({ args: ['--spring.cloud.config.server.git.privateKey=-----BEGIN'] }),
      (error: unknown) =>
        error instanceof SettingsError &&
        /is a Spring setting that confbus does not implement \(refusing to start without it\): no SSH keys/.test(
          error.message,
        ) &&
        !error.message.includes('BEGIN'),
    );
    assert.throws(
      () => resolve({ env: { SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST: 'vault' } }),
      /SPRING_CLOUD_CONFIG_SERVER_VAULT_HOST.*does not implement.*git only/,
    );
    const s = resolve({ file: { path: 'a.yml', text: 'spring.cloud.config.server.git.forcePull: true\n' } });
    assert.equal(s.warnings.length, 1);
    assert.match(
      s.warnings[0] ?? '',
      /forcePull' \(from file\) is a Spring setting .* \(ignored\): always forced/,
    );
  });

  it('warns about SPRING_/CONFBUS_ variables that name no setting, with a suggestion', () => {
    const s = resolve({
      env: { SPRING_CLOUD_CONFIG_SERVER_GIT_URL: 'x', CONFBUS_NOTHING_LIKE_IT_AT_ALL: 'y', HOME: '/root' },
    });
    assert.deepEqual(s.warnings, [
      'Environment variable CONFBUS_NOTHING_LIKE_IT_AT_ALL names no confbus setting (ignored).',
      'Environment variable SPRING_CLOUD_CONFIG_SERVER_GIT_URL names no confbus setting (ignored). ' +
        'Did you mean SPRING_CLOUD_CONFIG_SERVER_GIT_REPOS (spring.cloud.config.server.git.repos)?',
    ]);
  });

  it('names the setting of a value out of range', () => {
    const ranged: SettingSpec[] = [
      { key: 'server.port', type: 'integer', min: 0, max: 65535, description: 'port' },
    ];
    assert.throws(
      () => resolveSettings(ranged, { args: ['--server.port=99999'] }, { unknownKeys: 'error' }),
      /Setting 'server.port' from argument: '99999' must be between 0 and 65535/,
    );
  });
});

describe('settings file: YAML typed as Spring Boot (SnakeYAML) types it', () => {
  it('keeps y and n as text and reads on/off as booleans', () => {
    const values = parseSettingsFile(
      'application.yml',
      'a:\n  short: y\n  answer: n\n  flag: on\n  off-flag: off\n',
    );
    assert.deepEqual(values, { 'a.short': 'y', 'a.answer': 'n', 'a.flag': true, 'a.off-flag': false });
  });

  it('binds YAML floats as the text Spring binds them to, or as numbers', () => {
    const file = {
      path: 'application.yml',
      text: 'server:\n  port: 7.0e3\nspring:\n  cloud:\n    config:\n      server:\n        git:\n          default-label: 1.0\n',
    };
    const settings = resolveSettings(specs, { file }, { unknownKeys: 'error' });
    assert.equal(settings.get('spring.cloud.config.server.git.default-label'), '1.0');
    assert.equal(settings.get('server.port'), 7000);
  });

  it('refuses a file that holds no map, or several documents, naming the file', () => {
    assert.throws(
      () => parseSettingsFile('list.yml', '- a\n- b\n'),
      /Settings file list.yml must hold a map/,
    );
    assert.throws(() => parseSettingsFile('scalar.yml', 'just text\n'), /must hold a map/);
    assert.throws(
      () => parseSettingsFile('two.yml', 'a: 1\n---\nb: 2\n'),
      /Settings file two.yml holds 2 YAML documents/,
    );
    assert.deepEqual(parseSettingsFile('doc.yml', 'document: kept\n'), { document: 'kept' });
    assert.deepEqual(parseSettingsFile('empty.yml', '# nothing\n'), {});
  });
});

describe('settings resolver: ${...} placeholders, as Spring Boot binds application.yml', () => {
  const placeholderSpecs: SettingSpec[] = [
    ...specs,
    { key: 'spring.cloud.config.server.git.uri', type: 'string', description: 'uri' },
    { key: 'spring.cloud.config.server.git.password', type: 'string', secret: true, description: 'pw' },
    { key: 'spring.cloud.config.server.git.search-paths', type: 'list', description: 'paths' },
    { key: 'spring.cloud.config.server.overrides', type: 'string', isPrefix: true, description: 'map' },
  ];
  const resolve = (input: Parameters<typeof resolveSettings>[1], unknownKeys: 'error' | 'keep' = 'error') =>
    resolveSettings(placeholderSpecs, input, { unknownKeys });
  const uri = 'spring.cloud.config.server.git.uri';

  it('resolves other settings, environment variables, defaults and nesting, in every source', () => {
    const env = { GIT_HOST: 'git.example', WHICH: 'GIT_HOST', SERVER_PORT: '${PORT_BASE:80}81' };
    const file = {
      path: 'application.yml',
      text: [
        `${uri}: https://\${GIT_HOST}/\${team:platform}/config.git`,
        'spring.cloud.config.server.git.search-paths: ${first:a},b',
        'spring.cloud.config.server.overrides.host: ${${WHICH}}',
        'spring.cloud.config.server.overrides.port: ${server.port}',
        '',
      ].join('\n'),
    };
    const s = resolve({
      file,
      env,
      args: ['--spring.cloud.config.server.git.default-label=${GIT_HOST}-main'],
    });
    assert.equal(s.get(uri), 'https://git.example/platform/config.git');
    assert.deepEqual(s.list('spring.cloud.config.server.git.search-paths'), ['a', 'b']);
    assert.equal(s.get('spring.cloud.config.server.overrides.host'), 'git.example');
    assert.equal(s.get('server.port'), 8081, 'an environment value resolved, then coerced');
    assert.equal(s.get('spring.cloud.config.server.overrides.port'), '8081', 'a setting refers to another');
    assert.equal(s.get('spring.cloud.config.server.git.default-label'), 'git.example-main');
  });

  it("looks up in Spring's order: arguments, then environment variables, then the file; never defaults", () => {
    const file = {
      path: 'application.yml',
      text: `server.port: 7000\n${uri}: http://h:\${server.port}/\${spring.cloud.bus.enabled}\n`,
    };
    assert.equal(resolve({ file }).get(uri), 'http://h:7000/${spring.cloud.bus.enabled}');
    assert.equal(
      resolve({ file, env: { SERVER_PORT: '7100' } }).get(uri),
      'http://h:7100/${spring.cloud.bus.enabled}',
    );
    assert.equal(
      resolve({ file, env: { SERVER_PORT: '7100' }, args: ['--server.port=7200'] }).get(uri),
      'http://h:7200/${spring.cloud.bus.enabled}',
    );
    // An environment variable under Boot's relaxed names, for a key no setting declares.
    const relaxed = resolve({ args: [`--${uri}=\${git.base-url}/r.git`], env: { GIT_BASEURL: 'https://g' } });
    assert.equal(relaxed.get(uri), 'https://g/r.git');
  });

  it('keeps unresolvable placeholders and \\${ as written, and fails on a cycle as Spring does', () => {
    const s = resolve({ args: [`--${uri}=\${NOT_SET}/\\\${HOME}`], env: { HOME: '/root' } });
    assert.equal(s.get(uri), '${NOT_SET}/${HOME}');
    assert.throws(
      () =>
        resolve({
          args: [`--${uri}=\${spring.cloud.config.server.git.default-label}`],
          env: { SPRING_CLOUD_CONFIG_SERVER_GIT_DEFAULTLABEL: 'x-${spring.cloud.config.server.git.uri}' },
        }),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.code === 'CONFBUS_BAD_SETTING' &&
        /circular placeholder reference/.test(error.message),
    );
  });

  it('masks a value a secret went into, in errors and in the start-up summary', () => {
    const env = { GIT_TOKEN: 'tok3n-value' };
    const s = resolve({
      file: {
        path: 'application.yml',
        text: `spring.cloud.config.server.git.password: \${GIT_TOKEN}\n${uri}: https://\${GIT_TOKEN}@git.example/r.git\n`,
      },
      env,
    });
    assert.equal(s.get('spring.cloud.config.server.git.password'), 'tok3n-value');
    assert.equal(s.get(uri), 'https://tok3n-value@git.example/r.git');
    assert.equal(s.isSecret(uri), true);
    const summary = JSON.stringify(effectiveSettings(s));
    assert.ok(!summary.includes('tok3n'), summary);
    assert.match(summary, /"spring.cloud.config.server.git.password":"\*\*\*\*\*\* \(file\)"/);
    assert.throws(
      () => resolve({ args: ['--server.port=${GIT_TOKEN}'], env }),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.message.includes('(hidden)') &&
        !error.message.includes('tok3n'),
    );
  });

  it("leaves a client's own properties to its reads, which resolve them across every source", () => {
    const s = resolve({ args: ['--greeting=${name}', `--${uri}=\${name}`], env: { NAME: 'x' } }, 'keep');
    assert.equal(s.get('greeting'), '${name}');
    assert.equal(s.get(uri), 'x');
  });
});
