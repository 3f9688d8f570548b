// Runs a piece of code in a worker thread and ends it after a deadline, for tests whose failure mode is a
// synchronous stall (a backtracking regex, an exponential expansion): the test fails with "still running after
// N ms" instead of hanging the suite. The deadline is a safety net far above the expected cost, never a
// measurement.
import { Worker } from 'node:worker_threads';

export type DeadlineOutcome<T> = { done: true; value: T } | { done: false };

/**
 * Evaluates `source` — the body of an async function that may `await import(...)` packages and returns a
 * structured-cloneable value — in a fresh worker. Resolves `{ done: false }` when it is still running after
 * `deadlineMs` (the worker is terminated); rejects when it throws.
 */
export async function runWithDeadline<T>(source: string, deadlineMs: number): Promise<DeadlineOutcome<T>> {
  const worker = new Worker(
    `const { parentPort } = require('node:worker_threads');
     (async () => { ${source} })().then(
       (value) => parentPort.postMessage({ ok: true, value }),
       (error) => parentPort.postMessage({ ok: false, error: String(error && error.stack || error) }),
     );`,
    { eval: true },
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    return await new Promise<DeadlineOutcome<T>>((resolve, reject) => {
      timer = setTimeout(() => resolve({ done: false }), deadlineMs);
      worker.once('message', (message: { ok: boolean; value?: T; error?: string }) => {
        if (message.ok) resolve({ done: true, value: message.value as T });
        else reject(new Error(message.error));
      });
      worker.once('error', reject);
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
