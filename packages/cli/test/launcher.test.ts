/**
 * bin/confbus.js starts `run` and `render` from the bundle `npm run build` makes (scripts/bundle-cli.mjs), and
 * from the compiled entry once a package the bundle came from was compiled again. Checked on a copy of the
 * launcher and the bundle alone: the bundle must run without the compiled files beside it, and a stale one must
 * not run at all. And the bundle's `run` reads yaml's code only when there is YAML to decode (its start is what
 * a child waits for: docs/benchmarks.md, `confbus run`).
 */
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { type StubConfigServer, startStubConfigServer } from '@confbus/testkit/stub-config-server';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const cliDir = fileURLToPath(new URL('..', import.meta.url));

describe('confbus launcher', () => {
  let copy: { path: string; remove: () => Promise<void> };
  let launcher: string;

  before(async () => {
    copy = await makeTempDir('confbus-launcher-');
    const bundle = join(cliDir, 'dist/bundle');
    await readFile(join(bundle, 'inputs.json')).catch(() => {
      throw new Error(`${bundle} is missing: run npm run build`);
    });
    await cp(join(cliDir, 'bin'), join(copy.path, 'packages/cli/bin'), { recursive: true });
    await cp(bundle, join(copy.path, 'packages/cli/dist/bundle'), { recursive: true });
    launcher = join(copy.path, 'packages/cli/bin/confbus.js');
  });
  after(async () => {
    await stopAllNodeProcesses();
    await copy.remove();
  });

  it('runs confbus run from the bundle alone', async () => {
    const run = startNodeProcess(launcher, ['run', '--help']);
    assert.equal(await run.exited, 0, run.stderr.join('\n'));
    assert.match(run.stdout.join('\n'), /Usage: confbus run/);
  });

  describe('confbus run from the bundle', () => {
    let server: StubConfigServer;
    let dirs: { path: string; remove: () => Promise<void> };

    before(async () => {
      server = await startStubConfigServer();
      server.setEnvironment('lean', 'default', { propertySources: [{ name: 'lean.yml', source: { a: 1 } }] });
      dirs = await makeTempDir('confbus-launcher-cwd-');
    });
    after(async () => {
      await server.stop();
      await dirs.remove();
    });

    /** The files confbus run loaded through require() (yaml.cjs is one), written to standard error at exit. */
    async function requiredFiles(cwd: string): Promise<string[]> {
      const report =
        "import { createRequire } from 'node:module'; const { cache } = createRequire(process.execPath); " +
        "process.on('exit', () => process.stderr.write('REQUIRED ' + JSON.stringify(Object.keys(cache)) + '\\n'));";
      const run = startNodeProcess(
        launcher,
        ['run', `--spring.cloud.config.uri=${server.url}`, '--', process.execPath, '-e', '0'],
        { CONFBUS_LOGGING_FORMAT: 'json' },
        { cwd, nodeArgs: ['--import', `data:text/javascript,${encodeURIComponent(report)}`] },
      );
      assert.equal(await run.exited, 0, run.stderr.join('\n'));
      const line = run.stderr.find((text) => text.startsWith('REQUIRED '));
      assert.ok(line, run.stderr.join('\n'));
      return JSON.parse(line.slice('REQUIRED '.length)) as string[];
    }

    it('loads no yaml without a YAML settings file', async () => {
      const cwd = join(dirs.path, 'plain');
      await mkdir(cwd);
      const files = await requiredFiles(cwd);
      assert.deepEqual(
        files.filter((file) => /yaml/.test(file)),
        [],
      );
      // Nor is yaml's code inside the chunks (where loading it would leave no trace above).
      const bundle = join(copy.path, 'packages/cli/dist/bundle');
      for (const map of (await readdir(bundle)).filter((name) => name.endsWith('.js.map'))) {
        const { sources } = JSON.parse(await readFile(join(bundle, map), 'utf8')) as { sources: string[] };
        assert.deepEqual(
          sources.filter((source) => source.includes('node_modules/yaml/')),
          [],
          map,
        );
      }
    });

    it('loads yaml, from its one file beside the bundle, for an application.yml', async () => {
      const cwd = join(dirs.path, 'with-yaml');
      await mkdir(cwd);
      await writeFile(join(cwd, 'application.yml'), 'spring:\n  application:\n    name: lean\n');
      const files = await requiredFiles(cwd);
      assert.deepEqual(
        files.filter((file) => /yaml/.test(file)),
        [join(copy.path, 'packages/cli/dist/bundle/yaml.cjs')],
      );
    });
  });

  it('leaves a bundle older than a compiled package for the compiled entry', async () => {
    const { builds } = JSON.parse(
      await readFile(join(copy.path, 'packages/cli/dist/bundle/inputs.json'), 'utf8'),
    ) as { builds: string[] };
    const coreBuild = builds.find((build) => build.includes('/core/'));
    assert.ok(coreBuild, 'the bundle is made from @confbus/core');
    const rebuilt = fileURLToPath(new URL(coreBuild, `file://${copy.path}/packages/cli/dist/bundle/`));
    await mkdir(join(rebuilt, '..'), { recursive: true });
    await writeFile(rebuilt, '{}');
    const run = startNodeProcess(launcher, ['run', '--help']);
    assert.notEqual(await run.exited, 0);
    // Only the bundle was copied: the compiled entry the launcher turns to is not there.
    assert.match(run.stderr.join('\n'), /dist\/follow-main\.js/);
  });
});
