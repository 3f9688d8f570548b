/** The `confbus` command as users run it: a real child process. */
import assert from 'node:assert/strict';
import { access, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startNodeProcess, stopAllNodeProcesses } from '@confbus/testkit/child-process';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const confbus = fileURLToPath(new URL('../bin/confbus.js', import.meta.url));
const temps: Array<{ remove: () => Promise<void> }> = [];

async function tempDir(): Promise<string> {
  const dir = await makeTempDir('confbus-cli-');
  temps.push(dir);
  return dir.path;
}

describe('confbus command', () => {
  after(async () => {
    await stopAllNodeProcesses();
    await Promise.all(temps.map((t) => t.remove()));
  });

  it('serves the embedded sample repository when no git uri is set', async () => {
    const cwd = await tempDir();
    const server = startNodeProcess(
      confbus,
      ['server', '--server.port=0', '--server.address=127.0.0.1'],
      {},
      { cwd },
    );
    const line = await server.waitForLine(/Config server listening on http:\/\/127\.0\.0\.1:\d+/, 30_000);
    const base = /(http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    await server.waitForLine(/Try: /, 5_000);
    await access(join(cwd, '.confbus/sample-config-repo/.git'));
    const env = (await (await fetch(`${base}/sample/dev`)).json()) as {
      propertySources: Array<{ name: string; source: Record<string, unknown> }>;
    };
    const first = env.propertySources[0];
    assert.match(first?.name ?? '', /sample-dev\.yml$/);
    assert.equal(first?.source['group.profile'], 'dev');
    const yml = await (await fetch(`${base}/sample-dev.yml`)).text();
    assert.match(yml, /greeting: hello from the dev document of sample.yml/);
    assert.equal(await server.stop(), 0);
  });

  it('exits non-zero naming an unknown or malformed setting', async () => {
    const unknown = startNodeProcess(confbus, ['server', '--server.prot=1']);
    assert.notEqual(await unknown.exited, 0);
    assert.match(unknown.stderr.join('\n'), /Unknown setting 'server\.prot'.*Did you mean 'server\.port'/);
    const malformed = startNodeProcess(confbus, ['server'], { SERVER_PORT: 'eighty' });
    assert.notEqual(await malformed.exited, 0);
    assert.match(
      malformed.stderr.join('\n'),
      /Setting 'server\.port' from environment: 'eighty' must be a whole number/,
    );
  });

  it('reads a YAML settings file given with --spring.config.location', async () => {
    const file = join(await tempDir(), 'settings.yml');
    await writeFile(file, 'server:\n  port: "nope"\n');
    const run = startNodeProcess(confbus, ['server', `--spring.config.location=${file}`]);
    assert.notEqual(await run.exited, 0);
    assert.match(run.stderr.join('\n'), /server\.port.*from file/);
  });

  it('prints help with every server setting', async () => {
    const help = startNodeProcess(confbus, ['help']);
    assert.equal(await help.exited, 0);
    const text = help.stdout.join('\n');
    assert.match(text, /--spring\.cloud\.config\.server\.git\.uri=/);
    assert.match(text, /--server\.port=<integer> \(default: 8888\)/);
    assert.match(text, /Client settings[\s\S]*--spring\.cloud\.config\.fail-fast=<boolean>/);
  });
});
