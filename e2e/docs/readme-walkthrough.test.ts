// The README's "Try the bus" block, run as written by bash in an empty folder (twice: it must be repeatable),
// with `npx confbus` resolving to this checkout and the broker on a virtual host of its own. The block's
// comments promise outputs; this checks them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFile, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type TestVhost, createTestVhost } from '@confbus/testkit/rabbit-vhost';
import { makeTempDir } from '@confbus/testkit/temp-dir';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The first ```sh block after the heading. */
async function readmeBlock(heading: string): Promise<string> {
  const readme = await readFile(join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const match = /```sh\n([\s\S]*?)```/.exec(section);
  assert.ok(match?.[1], `README has a sh block after ${heading}`);
  return match[1];
}

interface Run {
  code: number | null;
  output: string;
}

/** Runs the block with bash in its own process group; whatever it leaves running is stopped afterwards. */
function runBlock(block: string, cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', block], { cwd, env, detached: true });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const deadline = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 120_000);
    child.on('error', reject);
    let exitCode: number | null = null;
    child.on('exit', (code) => {
      exitCode = code;
      clearTimeout(deadline);
      try {
        process.kill(-child.pid!, 'SIGKILL'); // anything the block's `kill` did not stop
      } catch {
        // the group is already gone
      }
    });
    // 'close' comes once every process of the group has let go of the pipes: all output is in.
    child.on('close', () => resolve({ code: exitCode, output }));
  });
}

describe('README: Try the bus', () => {
  let vhost: TestVhost;
  let dir: Awaited<ReturnType<typeof makeTempDir>>;

  before(async () => {
    vhost = await createTestVhost();
    dir = await makeTempDir('confbus-readme-');
    // `npx confbus` finds the checkout's workspace bin here, never the registry.
    await symlink(join(root, 'node_modules'), join(dir.path, 'node_modules'));
  });
  after(async () => {
    await dir?.remove();
    await vhost?.remove();
  });

  it('refreshes both sample clients with one call and with the webhook, and can run again', async () => {
    const block = await readmeBlock('### Try the bus');
    const env = { ...process.env, SPRING_RABBITMQ_VIRTUAL_HOST: vhost.name };
    const comments: string[] = [];
    for (let round = 1; round <= 2; round++) {
      const run = await runBlock(block, dir.path, env);
      if (process.env.CONFBUS_DEBUG_README) console.log(run.output);
      assert.equal(run.code, 0, `round ${round} exited ${run.code}:\n${run.output}`);
      const dynamic = /\{"profile":"dev","comment":"(changed at [^"]+)"\}/.exec(run.output);
      assert.ok(dynamic?.[1], `round ${round}: /dynamic shows the pushed comment:\n${run.output}`);
      comments.push(dynamic[1]);
      assert.match(
        run.output,
        /\{"profile":"dev","comment":"(development settings for sample|changed at [^"]+)"\}/,
      );
      assert.match(run.output, /\["sample-dev","sample"\]/, 'the webhook names the affected applications');
      assert.ok(
        (run.output.match(/Keys refreshed/g) ?? []).length >= 2,
        `both clients logged the refresh:\n${run.output}`,
      );
      assert.match(
        run.output,
        /"destination":"sample-dev:\*\*","commit":"[0-9a-f]{40}"/,
        'refresh-events lists the event',
      );
    }
    assert.equal(comments.length, 2);
  });
});
