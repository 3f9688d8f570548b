/**
 * Spring Cloud Config's own tests of the environment controller, ported to HTTP against confbus:
 * EnvironmentControllerTests and EnvironmentControllerIntegrationTests (spring-cloud-config-server, main at
 * 5.0.x). Spring's tests hand the controller a mocked repository; here each test's property sources are files of
 * an application of its own (`<app>.properties` is Spring's source "one", `<app>-bar.properties` the higher
 * "two"), and the names in the `it` titles are Spring's test methods. Where confbus differs on purpose, the test
 * asserts confbus's answer and names the row of docs/coming-from-spring.md.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseConfigFile } from '@confbus/core';
import { type PortedServer, startPortedServer } from './ported-server.js';

const RAW = '?resolvePlaceholders=false';

const files: Record<string, string> = {
  'vanilla.properties': 'a.b.c=d\n',
  'override.properties': 'a.b.c=d\n',
  'override-bar.properties': 'a.b.c=e\n',
  'multi.yml': "A: 'Y'\nS: 2\n'Y': 0\n",
  'multi-bar.yml': "A: 'Z'\nS: 3\n",
  'ph.properties': 'foo=bar\n',
  'ph-bar.properties': 'a.b.c=${foo}\n',
  'sysprops-bar.properties': 'a.b.c=${foo}\n',
  'sysdefault-bar.properties': 'a.b.c=${foo:spam}\n',
  'array.properties': 'a.b[0]=c\na.b[1]=d\n',
  'brackets.properties': 'a.test=e\na.b[hello]=c\na.b[world]=d\na.b[world]d=f\n',
  'arrays.properties': 'a.b[0]=c\na.b[1]=d\na.b[2]=z\n',
  'arrays-bar.properties': 'a.b[0]=f\na.b[1]=h\n',
  'text.properties': 'document=blah\n',
  'toplist.properties': 'document[0]=c\ndocument[1]=d\n',
  'topobjects.properties': 'document[0].a=c\ndocument[1].a=d\n',
  'ay.properties': 'org.springframework=WARN\norg.springframework.cloud=ERROR\n',
  'objects.properties': 'a.b[0].c=d\na.b[0].d=e\na.b[1].c=d\n',
  'nested.properties': [
    'a.b[0].c=x',
    'a.b[2].e[0].d=z',
    'a.b[0].d[2]=yy',
    'a.b[0].d[0]=xx',
    'a.b[2].c=y',
    'a.b[3][0]=r',
    'a.b[3][1]=s',
    '',
  ].join('\n'),
  'nestedjson.properties': 'a.b[0].c=x\na.b[0].d[0]=xx\na.b[0].d[1]=yy\na.b[1].c=y\na.b[1].e[0].d=z\n',
  'topobjectlist.properties': 'b[0].c=d\nb[1].c=d\n',
  'deepobjects.properties': 'x.a.b[0].c=d\nx.a.b[1].c=d\n',
  'multiline.yml': 'multiline: "line1\\nline2\\nline3\\n"\nref: ${multiline}\n',
  'foo/spam.properties': 'nested=yes\n',
  'foo.properties': 'foo=bar\n',
};

/** A branch's own `foo.properties`, so an answer shows which branch it read. */
const branch = (name: string) => ({ 'foo.properties': `branch=${name}\n` });

describe("Spring's EnvironmentControllerTests over HTTP", () => {
  let spring: PortedServer;
  let notEmpty: PortedServer;

  before(async () => {
    const branches: Record<string, Record<string, string>> = {};
    for (const name of ['other', 'awesome', '1.0.0', 'feature/puff', 'two/spam', 'lbl/spam'])
      branches[name] = branch(name);
    [spring, notEmpty] = await Promise.all([
      startPortedServer(files, {}, branches),
      startPortedServer(files, { 'spring.cloud.config.server.accept-empty': 'false' }),
    ]);
  });

  after(async () => {
    await spring?.stop();
    await notEmpty?.stop();
  });

  const text = async (path: string) => {
    const response = await spring.get(path);
    assert.equal(response.status, 200, `${path}: ${response.body}`);
    return response.body;
  };

  it('vanillaYaml', async () => {
    assert.equal(await text(`/vanilla-bar.yml${RAW}`), 'a:\n  b:\n    c: d\n');
  });

  it('propertyOverrideInYaml', async () => {
    assert.equal(await text(`/override-bar.yml${RAW}`), 'a:\n  b:\n    c: e\n');
  });

  it('propertyOverrideInYamlMultipleValues', async () => {
    // SnakeYAML reads no boolean into `Y` (its YAML 1.1 booleans leave out y/n), so the key is written plain.
    assert.equal(await text(`/multi-bar.yml${RAW}`), 'A: Z\nS: 3\nY: 0\n');
  });

  it('placeholdersResolvedInYaml, placeholdersNotResolvedInYaml', async () => {
    assert.deepEqual(
      Object.fromEntries(parseConfigFile('r.yml', await text('/ph-bar.yml'))[0]?.properties ?? []),
      {
        'a.b.c': 'bar',
        foo: 'bar',
      },
    );
    assert.deepEqual(
      Object.fromEntries(parseConfigFile('r.yml', await text(`/ph-bar.yml${RAW}`))[0]?.properties ?? []),
      {
        'a.b.c': '${foo}',
        foo: 'bar',
      },
    );
  });

  it('placeholdersNotResolvedInYamlFromSystemProperties (and WhenNotFlagged, WithDefault, WhenFlagged)', async () => {
    // Spring's JVM system properties are no property source of an environment; confbus has none either.
    assert.equal(await text('/sysprops-bar.yml'), 'a:\n  b:\n    c: ${foo}\n');
    assert.equal(await text(`/sysprops-bar.yml${RAW}`), 'a:\n  b:\n    c: ${foo}\n');
    assert.equal(await text(`/sysdefault-bar.yml${RAW}`), 'a:\n  b:\n    c: ${foo:spam}\n');
    assert.equal(await text('/sysdefault-bar.yml'), 'a:\n  b:\n    c: spam\n');
  });

  it('arrayInYaml', async () => {
    assert.equal(await text(`/array-bar.yml${RAW}`), 'a:\n  b:\n  - c\n  - d\n');
  });

  it('yamlWithBrackets', async () => {
    assert.equal(
      await text(`/brackets-bar.yml${RAW}`),
      'a:\n  test: e\n  b[hello]: c\n  b[world]: d\n  b[world]d: f\n',
    );
  });

  it('arrayOverridenInEnvironment', async () => {
    const env = await spring.environment('/arrays/bar/other');
    assert.equal(env.name, 'arrays');
    assert.deepEqual(env.profiles, ['bar']);
    assert.equal(env.label, 'other');
    assert.deepEqual(
      env.propertySources.map((source) => Object.keys(source.source).length),
      [2, 3],
    );
  });

  it('arrayOverridenInYaml', async () => {
    assert.equal(await text(`/arrays-bar.yml${RAW}`), 'a:\n  b:\n  - f\n  - h\n');
  });

  it('textAtTopLevelInYaml, arrayAtTopLevelInYaml, arrayObObjectAtTopLevelInYaml', async () => {
    assert.equal(await text(`/text-bar.yml${RAW}`), 'blah\n');
    assert.equal(await text(`/toplist-bar.yml${RAW}`), '- c\n- d\n');
    assert.equal(await text(`/topobjects-bar.yml${RAW}`), '- a: c\n- a: d\n');
  });

  it('yamlWithProperties', async () => {
    assert.equal(
      await text(`/ay-${encodeURIComponent('äzöq')}.yml${RAW}`),
      'org:\n  springframework: WARN\n  springframework.cloud: ERROR\n',
    );
  });

  it('arrayOfObjectInYaml', async () => {
    assert.equal(await text(`/objects-bar.yml${RAW}`), 'a:\n  b:\n  - c: d\n    d: e\n  - c: d\n');
  });

  it('nestedArraysOfObjectInYaml', async () => {
    // Spring reads the YAML back and checks the structure, gaps as nulls: the text SnakeYAML writes for it.
    assert.equal(
      await text(`/nested-bar.yml${RAW}`),
      [
        'a:',
        '  b:',
        '  - c: x',
        '    d:',
        '    - xx',
        '    - null',
        '    - yy',
        '  - null',
        '  - e:',
        '    - d: z',
        '    c: y',
        '  - - r',
        '    - s',
        '',
      ].join('\n'),
    );
  });

  it('nestedArraysOfObjectInJson', async () => {
    assert.equal(
      await text(`/nestedjson-bar.json${RAW}`),
      '{"a":{"b":[{"c":"x","d":["xx","yy"]},{"c":"y","e":[{"d":"z"}]}]}}',
    );
  });

  it('arrayOfObjectAtTopLevelInYaml, arrayOfObjectNestedLevelInYaml', async () => {
    assert.equal(await text(`/topobjectlist-bar.yml${RAW}`), 'b:\n- c: d\n- c: d\n');
    assert.equal(await text(`/deepobjects-bar.yml${RAW}`), 'x:\n  a:\n    b:\n    - c: d\n    - c: d\n');
  });

  it('placeholdersResolvedInProperties, placeholdersNotResolvedInProperties (and FromSystemProperties)', async () => {
    // Spring's test reads the text back as java.util.Properties (any order); its lowest source comes first.
    assert.equal(await text('/ph-bar.properties'), 'foo: bar\na.b.c: bar');
    assert.equal(await text(`/ph-bar.properties${RAW}`), 'foo: bar\na.b.c: ${foo}');
    assert.equal(await text('/sysprops-bar.properties'), 'a.b.c: ${foo}');
    assert.equal(await text(`/sysdefault-bar.properties${RAW}`), 'a.b.c: ${foo:spam}');
  });

  it('placeholdersResolvedInJson, placeholdersNotResolvedInJson (and FromSystemProperties)', async () => {
    assert.deepEqual(JSON.parse(await text('/ph-bar.json')), { a: { b: { c: 'bar' } }, foo: 'bar' });
    assert.deepEqual(JSON.parse(await text(`/ph-bar.json${RAW}`)), { a: { b: { c: '${foo}' } }, foo: 'bar' });
    assert.equal(await text('/sysprops-bar.json'), '{"a":{"b":{"c":"${foo}"}}}');
    assert.equal(await text(`/sysdefault-bar.json${RAW}`), '{"a":{"b":{"c":"${foo:spam}"}}}');
    assert.equal(await text('/sysdefault-bar.json'), '{"a":{"b":{"c":"spam"}}}');
  });

  it('multilinePlaceholderResolvedInYaml, multilinePlaceholderResolvedInJson', async () => {
    assert.deepEqual(
      Object.fromEntries(parseConfigFile('r.yml', await text('/multiline-bar.yml'))[0]?.properties ?? []),
      {
        multiline: 'line1\nline2\nline3\n',
        ref: 'line1\nline2\nline3\n',
      },
    );
    assert.deepEqual(JSON.parse(await text('/multiline-bar.json')), {
      multiline: 'line1\nline2\nline3\n',
      ref: 'line1\nline2\nline3\n',
    });
  });

  it('testNameWithSlash, environmentWithApplicationContainingSlash', async () => {
    const env = await spring.environment('/foo(_)spam/bar');
    assert.equal(env.name, 'foo/spam');
    assert.equal(env.propertySources[0]?.source.nested, 'yes');
  });

  it('testLabelWithSlash, environmentWithLabelContainingSlash, propertiesLabelWithSlash', async () => {
    assert.equal((await spring.environment('/foo/bar/two(_)spam')).label, 'two/spam');
    assert.match((await spring.get('/foo/default/feature(_)puff')).body, /"propertySources":/);
    assert.match(await text('/lbl(_)spam/foo-default.properties'), /^branch: lbl\/spam$/m);
  });

  it('testEnvironmentNotFound, environmentMissing (accept-empty=false)', async () => {
    assert.equal((await notEmpty.get('/nothing/bar')).status, 404);
    assert.equal((await notEmpty.get('/foo1/notfound')).status, 404);
    assert.equal((await notEmpty.get('/foo/bar')).status, 200, 'testwithValidEnvironment');
  });

  it('nameStartsWithSlash, labelWithPreviousDirectory (and encoded), labelStartsWithSlash, nameWithPoundEncoded', async () => {
    for (const path of [
      '/(_)spam/bar',
      '/foo/bar/..(_)..',
      '/foo/bar/..%28_%29..',
      '/foo/bar/%2E%2E%28%5F%29%2E%2E',
      '/foo/bar/(_)spam',
      '/foo%23/bar/mylabel',
    ]) {
      assert.equal((await spring.get(path)).status, 400, path);
    }
  });

  it('invalidProfileTests', async () => {
    for (const profiles of ['bar,..,foo', '%2e%2e', 'bar,%2e%2e,foo', 'bar%2Ffoo']) {
      assert.equal((await spring.get(`/application/${profiles}/other`)).status, 400, profiles);
    }
  });

  it('mappingForEnvironment, mappingForLabelledEnvironment, environmentWithLabel, environmentWithLabelContainingPeriod', async () => {
    for (const path of ['/foo/bar', '/foo/bar/other', '/foo/default/awesome', '/foo/default/1.0.0']) {
      assert.equal((await spring.get(path)).status, 200, path);
    }
  });

  it('mappingForYaml, mappingForJson: an empty environment', async () => {
    const yml = await spring.get('/empty-bar.yml');
    assert.match(yml.headers.get('content-type') ?? '', /^text\/plain/);
    assert.equal(yml.body, '{}\n');
    const json = await spring.get('/empty-bar.json');
    assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(json.body, '{}');
  });

  it('mappingForLabelled{Yaml,Properties,JsonProperties}{,WithHyphen}, mappingFor{Properties,JsonProperties}', async () => {
    const types: [string, RegExp][] = [
      ['/other/foo-bar.yml', /^text\/plain/],
      ['/other/foo-bar.properties', /^text\/plain/],
      ['/foo-bar.properties', /^text\/plain/],
      ['/other/foo-bar-foo2-bar2-spam.yml', /^text\/plain/],
      ['/other/foo-bar.json', /^application\/json/],
      ['/foo-bar.json', /^application\/json/],
      ['/other/foo-bar-foo2-bar2-spam.json', /^application\/json/],
    ];
    for (const [path, type] of types) {
      const response = await spring.get(path);
      assert.equal(response.status, 200, path);
      assert.match(response.headers.get('content-type') ?? '', type, path);
    }
  });
});

describe("Spring's EnvironmentControllerIntegrationTests over HTTP", () => {
  let spring: PortedServer;

  before(async () => {
    spring = await startPortedServer(files, {}, { other: branch('other'), 'lbl/spam': branch('lbl/spam') });
  });

  after(async () => spring?.stop());

  it('environmentNoLabel, profileWithDash, profileContainingExtensionKeyword', async () => {
    for (const profiles of ['default', 'dev-db', 'dev-yml', 'dev-yaml', 'dev-json', 'dev-properties']) {
      const response = await spring.get(`/foo/${profiles}`);
      assert.equal(response.status, 200, profiles);
      assert.deepEqual((JSON.parse(response.body) as { profiles: string[] }).profiles, [profiles]);
    }
  });

  it('profileHavingAnExtension', async () => {
    for (const extension of ['yml', 'yaml', 'json', 'properties']) {
      assert.equal((await spring.get(`/foo/dev.${extension}`)).status, 404, extension);
    }
  });

  it('propertiesNoLabel, propertiesLabel, propertiesLabelWhenApplicationNameContainsHyphen, propertiesLabelWithSlash', async () => {
    for (const path of [
      '/foo-default.properties',
      '/other/foo-default.properties',
      '/other/foo-bar-default.properties',
      '/lbl(_)spam/foo-default.properties',
    ]) {
      assert.equal((await spring.get(path)).status, 200, path);
    }
  });

  it('environmentWithMissingLabel', async () => {
    assert.equal((await spring.get('/foo/default/missing')).status, 404);
  });
});
