import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPropertySources, candidateConfigFiles, parseConfigFile } from '@confbus/core';

function stems(paths: { path: string }[]): string[] {
  // Keep one entry per stem (the .properties one) to compare the tier order compactly.
  return paths.map((c) => c.path).filter((p) => p.endsWith('.properties'));
}

describe('candidate config files', () => {
  it('orders profile files before plain ones, last profile first, app before application', () => {
    const files = candidateConfigFiles({ applications: ['foo'], profiles: ['dev', 'db'], directories: [''] });
    assert.deepEqual(stems(files), [
      'foo-db.properties',
      'application-db.properties',
      'foo-dev.properties',
      'application-dev.properties',
      'foo.properties',
      'application.properties',
    ]);
    assert.deepEqual(
      files.slice(0, 3).map((c) => c.path),
      ['foo-db.properties', 'foo-db.yml', 'foo-db.yaml'],
    );
    assert.deepEqual(
      files.map((c) => c.profile).filter((p, i, all) => all.indexOf(p) === i),
      ['db', 'dev', null],
    );
  });

  it('puts later applications of a comma list first', () => {
    const files = candidateConfigFiles({ applications: ['foo', 'bar'], profiles: [], directories: [''] });
    assert.deepEqual(stems(files), ['bar.properties', 'foo.properties', 'application.properties']);
  });

  it('lists application once when it is the requested app', () => {
    const files = candidateConfigFiles({
      applications: ['application'],
      profiles: ['default'],
      directories: [''],
    });
    assert.deepEqual(
      files.map((c) => c.path),
      [
        'application-default.properties',
        'application-default.yml',
        'application-default.yaml',
        'application.properties',
        'application.yml',
        'application.yaml',
      ],
    );
  });

  it('lets later search directories win within each tier', () => {
    const files = candidateConfigFiles({
      applications: ['foo'],
      profiles: ['dev'],
      directories: ['', 'sub/'],
    });
    assert.deepEqual(stems(files), [
      'sub/foo-dev.properties',
      'sub/application-dev.properties',
      'foo-dev.properties',
      'application-dev.properties',
      'sub/foo.properties',
      'sub/application.properties',
      'foo.properties',
      'application.properties',
    ]);
  });
});

describe('property sources', () => {
  const uri = 'https://git.example/repo/';
  const load = (path: string, profile: string | null, text: string) => ({
    path,
    profile,
    documents: parseConfigFile(path, text),
  });

  it('names single- and multi-document sources, later documents first, activation applied', () => {
    const files = [
      load('foo-dev.properties', 'dev', 'a=1\n'),
      load(
        'application.yml',
        null,
        'x: 0\n---\nspring.config.activate.on-profile: dev\nx: 1\n---\nspring.config.activate.on-profile: prod\nx: 2\n---\n{}\n',
      ),
      load('empty.yml', null, '# nothing\n'),
    ];
    const sources = buildPropertySources(files, ['dev'], uri);
    assert.deepEqual(
      sources.map((s) => s.name),
      [
        'https://git.example/repo/foo-dev.properties',
        'https://git.example/repo/application.yml (document #1)',
        'https://git.example/repo/application.yml (document #0)',
      ],
    );
    assert.deepEqual(Object.fromEntries(sources[1]?.source ?? []), {
      'spring.config.activate.on-profile': 'dev',
      x: 1,
    });
  });

  it('treats no active profile as default, and evaluates expressions', () => {
    const files = [
      load(
        'application.yml',
        null,
        [
          'spring.config.activate.on-profile: default',
          'a: 1',
          '---',
          'spring.config.activate.on-profile: "!dev"',
          'b: 2',
          '---',
          'spring.config.activate.on-profile: dev & (db | mq)',
          'c: 3',
          '---',
          'spring.config.activate.on-profile: x,db',
          'd: 4',
          '',
        ].join('\n'),
      ),
    ];
    const keys = (profiles: string[]) =>
      buildPropertySources(files, profiles, uri).flatMap((s) =>
        [...s.source.keys()].filter((k) => k.length === 1),
      );
    assert.deepEqual(keys([]), ['b', 'a']);
    assert.deepEqual(keys(['dev', 'mq']), ['c']);
    assert.deepEqual(keys(['dev', 'db']), ['d', 'c']);
    assert.deepEqual(keys(['prod']), ['b']);
  });
});
