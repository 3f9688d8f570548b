/**
 * bin/confbus.js starts `run` and `render` from the bundle `npm run build` makes (scripts/bundle-cli.mjs), and
 * from the compiled entry once a package the bundle came from was compiled again. Checked on a copy of the
 * launcher and the bundle alone: the bundle must run without the compiled files beside it, and a stale one must
 * not run at all.
 */
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
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
