/** The child of `confbus run`, with real processes: exit status, signals, graceful and forced restarts. */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { silentLogger } from '@confbus/core';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import { waitFor } from '@confbus/testkit/wait-for';
import { ChildSupervisor, exitStatusOf } from '../../src/run/child-supervisor.js';

const temps: TempDir[] = [];
async function logFile(): Promise<string> {
  const dir = await makeTempDir('confbus-supervisor-');
  temps.push(dir);
  return join(dir.path, 'child.log');
}

const read = (file: string) => readFile(file, 'utf8').catch(() => '');

/** A shell child that logs its start with $V, and what it does on SIGTERM (`trap`), then waits. */
function shellChild(onTerm: string): { command: string; args: string[] } {
  // The trap first: a test signals the child as soon as it reads the start line.
  const script = `trap '${onTerm}' TERM; echo "start $V $$" >> "$LOG"; while :; do sleep 0.05; done`;
  return { command: '/bin/sh', args: ['-c', script] };
}

describe('ChildSupervisor', () => {
  after(() => Promise.all(temps.map((t) => t.remove())));

  it("exits with the child's code, and 128 + n for a death by signal n", async () => {
    const exits = new ChildSupervisor({ command: '/bin/sh', args: ['-c', 'exit 3'] }, 1000, silentLogger);
    exits.start({});
    assert.deepEqual(await exits.done, { code: 3, description: 'exit code 3' });
    const killed = new ChildSupervisor(
      { command: '/bin/sh', args: ['-c', 'kill -TERM $$'] },
      1000,
      silentLogger,
    );
    killed.start({});
    assert.deepEqual(await killed.done, { code: 143, description: 'signal SIGTERM' });
    assert.equal(exitStatusOf(null, 'SIGKILL').code, 137);
  });

  it('answers 127 for a command that does not exist', async () => {
    const missing = new ChildSupervisor({ command: 'confbus-no-such-command', args: [] }, 1000, silentLogger);
    missing.start({});
    assert.equal(missing.pid, undefined);
    assert.deepEqual(await missing.done, {
      code: 127,
      description: 'command not found: confbus-no-such-command',
    });
  });

  it('restarts gracefully: SIGTERM, the old child exits, the new one starts with the new environment', async () => {
    const log = await logFile();
    const supervisor = new ChildSupervisor(
      shellChild('echo "term $V" >> "$LOG"; exit 0'),
      10_000,
      silentLogger,
    );
    supervisor.start({ V: 'one', LOG: log, PATH: process.env.PATH ?? '' });
    await waitFor('the first child', async () => (await read(log)).includes('start one'));
    await supervisor.restart({ V: 'two', LOG: log, PATH: process.env.PATH ?? '' });
    await waitFor('the second child', async () => (await read(log)).includes('start two'));
    assert.deepEqual(
      (await read(log)).split('\n').map((line) => line.split(' ').slice(0, 2).join(' ')),
      ['start one', 'term one', 'start two', ''],
    );
    supervisor.forward('SIGTERM');
    assert.equal((await supervisor.done).code, 0);
  });

  it('kills a child that ignores SIGTERM once the grace period is over', async () => {
    const log = await logFile();
    const supervisor = new ChildSupervisor(shellChild(''), 200, silentLogger);
    supervisor.start({ V: 'stubborn', LOG: log, PATH: process.env.PATH ?? '' });
    await waitFor('the child', async () => (await read(log)).includes('start stubborn'));
    const firstPid = supervisor.pid;
    await supervisor.restart({ V: 'next', LOG: log, PATH: process.env.PATH ?? '' });
    assert.notEqual(supervisor.pid, firstPid);
    await waitFor('the new child', async () => (await read(log)).includes('start next'));
    supervisor.signal('SIGKILL');
    assert.equal((await supervisor.done).code, 137);
  });

  it('kills a child that ignores the SIGTERM confbus passed on once the grace period is over', async () => {
    const log = await logFile();
    const supervisor = new ChildSupervisor(shellChild(''), 200, silentLogger);
    supervisor.start({ V: 'stubborn', LOG: log, PATH: process.env.PATH ?? '' });
    await waitFor('the child', async () => (await read(log)).includes('start stubborn'));
    supervisor.forward('SIGTERM');
    assert.deepEqual(await supervisor.done, { code: 137, description: 'signal SIGKILL' });
  });

  it('passes a signal on, and a SIGTERM meanwhile stops the run instead of a restart', async () => {
    const log = await logFile();
    const supervisor = new ChildSupervisor(
      {
        command: '/bin/sh',
        args: ['-c', `trap 'echo hup >> "$LOG"' HUP; echo start >> "$LOG"; while :; do sleep 0.05; done`],
      },
      10_000,
      silentLogger,
    );
    supervisor.start({ LOG: log, PATH: process.env.PATH ?? '' });
    await waitFor('the child', async () => (await read(log)).includes('start'));
    supervisor.forward('SIGHUP');
    await waitFor('the HUP', async () => (await read(log)).includes('hup'));
    supervisor.forward('SIGTERM');
    await supervisor.restart({});
    assert.equal((await supervisor.done).code, 143);
    assert.equal((await read(log)).match(/start/g)?.length, 1);
  });
});
