/** `search-paths`: extra directories with {application}/{profile}/{label} placeholders and Ant wildcards. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { EACH_LABEL, directoriesOf, expandSearchDirectories } from '../src/environment/search-directories.js';
import { type TestServer, startTestServer } from './server-harness.js';

/** The uri the fake repository reports (its property sources are named after it). */
const FAKE_URI = 'fake://config';

describe('search-paths', () => {
  it('expands placeholders and wildcards against the directories in the tree, root first', () => {
    const dirs = directoriesOf(['a.yml', 'foo/x.yml', 'teams/red/y.yml', 'teams/blue/z.yml', 'dev/w.yml']);
    const context = { applications: ['foo'], profiles: ['dev'], label: 'main' };
    assert.deepEqual(
      expandSearchDirectories(['{application}', '{profile}', 'teams/*', 'missing'], context, dirs),
      ['', 'foo', 'dev', 'teams/blue', 'teams/red'],
    );
    assert.deepEqual(expandSearchDirectories(['../etc', './x', '/'], context, dirs), [''], 'no escapes');
    assert.deepEqual(expandSearchDirectories(['**'], context, dirs).length, dirs.size + 1);
  });

  it('expands {each-label} to a directory per label of a list, the last first; {label} stays whole', () => {
    const dirs = directoriesOf(['v1/a.yml', 'v2/b.yml', 'v1,v2/c.yml']);
    const context = { applications: ['foo'], profiles: ['dev'], label: 'v1, v2,' };
    assert.deepEqual(expandSearchDirectories([EACH_LABEL], context, dirs), ['', 'v2', 'v1']);
    assert.deepEqual(expandSearchDirectories(['{label}'], { ...context, label: 'v1,v2' }, dirs), [
      '',
      'v1,v2',
    ]);
  });

  it("matches wildcards as Spring's AntPathMatcher, linearly: a hostile directory name costs no backtracking", () => {
    // A repository's directory names are its writers' to choose: 600 characters of dashes made the RegExp this
    // replaced backtrack for seconds against `*-*-*-*/x` (O(n^4)); the automaton reads each character once per token.
    const hostile = `${'a-'.repeat(300)}/y`;
    const dirs = directoriesOf([
      `${hostile}/f.yml`,
      'teams/red/x/f.yml',
      'a-b-c-d/x/f.yml',
      'deep/a/b/c/f.yml',
    ]);
    const context = { applications: ['foo'], profiles: ['dev'], label: 'main' };
    assert.deepEqual(expandSearchDirectories(['*-*-*-*/x'], context, dirs), ['', 'a-b-c-d/x']);
    assert.deepEqual(
      expandSearchDirectories(['teams/*'], context, dirs),
      ['', 'teams/red'],
      '* stays in one name',
    );
    assert.deepEqual(expandSearchDirectories(['deep/**/c'], context, dirs), ['', 'deep/a/b/c']);
    assert.deepEqual(expandSearchDirectories(['t?ams/r*'], context, dirs), ['', 'teams/red']);
  });

  describe('against a served repository', () => {
    let files: Record<string, string>;
    let server: TestServer;

    before(async () => {
      files = {
        'application.yml': 'where: root\nroot.only: yes\n',
        'foo/application.yml': 'where: foo-dir\n',
        'foo/foo-dev.yml': 'where: foo-dir-dev\n',
        'shared/common/application.yml': 'common: true\n',
      };
      server = await startTestServer(
        {
          'spring.cloud.config.server.git.search-paths': '{application},shared/*',
        },
        { files },
      );
    });

    after(async () => {
      await server?.stop();
    });

    it('reads files from the expanded directories, later directories winning within a tier', async () => {
      const env = (await server.get('/foo/dev')).json() as {
        propertySources: Array<{ name: string; source: Record<string, unknown> }>;
      };
      const uri = FAKE_URI.replace(/\/+$/, '');
      assert.deepEqual(
        env.propertySources.map((s) => s.name),
        [
          `${uri}/foo/foo-dev.yml`,
          `${uri}/shared/common/application.yml`,
          `${uri}/foo/application.yml`,
          `${uri}/application.yml`,
        ],
      );
      const other = (await server.get('/bar/default')).json() as { propertySources: Array<{ name: string }> };
      assert.ok(!other.propertySources.some((s) => s.name.includes('/foo/')), '{application} is per request');
    });
  });
});
