/**
 * When the test broker is ready: it logged that it started, answers a metadata request and has a working
 * group coordinator (no sleeps); and its output, kept for failure messages.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Admin, Consumer } from '@platformatic/kafka';

const STARTED = /Kafka Server started/;

/** Waits for the "started" line, then for a metadata answer and a working group coordinator. */
export async function waitUntilReady(
  child: ChildProcess,
  started: Promise<void>,
  bootstrap: string,
  lines: readonly string[],
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  let onExit: ((code: number | null) => void) | undefined;
  const failure = new Promise<never>((_, reject) => {
    const recent = () => lines.slice(-60).join('\n');
    timer = setTimeout(
      () => reject(new Error(`the Kafka broker was not ready within 120 s:\n${recent()}`)),
      120_000,
    );
    onExit = (code) =>
      reject(new Error(`the Kafka broker exited (${String(code)}) before it was ready:\n${recent()}`));
    child.once('exit', onExit);
  });
  try {
    await Promise.race([started.then(() => warmUp(bootstrap)), failure]);
  } finally {
    clearTimeout(timer);
    if (onExit) child.removeListener('exit', onExit);
  }
}

/**
 * The first consumer group on a fresh broker waits for the offsets topic to be created; doing it here keeps
 * that wait out of the tests' own timings. Retries are the client's (no sleeps of ours).
 */
async function warmUp(bootstrap: string): Promise<void> {
  const admin = new Admin({
    clientId: 'confbus-test-warmup',
    bootstrapBrokers: [bootstrap],
    retries: 40,
    retryDelay: 250,
  });
  try {
    const topics = await admin.listTopics();
    if (!topics.includes('confbus-warmup')) {
      await admin.createTopics({ topics: ['confbus-warmup'], partitions: 1, replicas: 1 });
    }
  } finally {
    await admin.close();
  }
  const consumer = new Consumer({
    clientId: 'confbus-test-warmup',
    groupId: `warmup.${randomBytes(4).toString('hex')}`,
    bootstrapBrokers: [bootstrap],
    retries: 40,
    retryDelay: 250,
  });
  try {
    const stream = await consumer.consume({ topics: ['confbus-warmup'], mode: 'latest', autocommit: false });
    await stream.close();
  } finally {
    await new Promise<void>((resolve) => consumer.close(true, () => resolve()));
  }
}

/** Keeps the last lines of the child's output; resolves once it logged that it started. */
export function collect(child: ChildProcess, lines: string[]): Promise<void> {
  return new Promise((resolve) => {
    const onData = (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (line === '') continue;
        lines.push(line);
        if (lines.length > 2000) lines.splice(0, 1000);
        if (STARTED.test(line)) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
}
