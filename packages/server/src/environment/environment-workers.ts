/**
 * The worker threads (piscina) where work too long for the event loop runs: parsing configuration files
 * (config-file-parser.ts) and rendering large environments as files (resolved-environment.ts). One pool for both,
 * one or two threads, started on first use; a task running longer than TASK_TIMEOUT_MS is abandoned (its
 * thread ended) and reported by the caller's error.
 */
import { availableParallelism } from 'node:os';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import type { WorkerTasks } from './environment-worker.js';

/** A task that takes longer is abandoned. */
export const TASK_TIMEOUT_MS = 30_000;

export class EnvironmentWorkers {
  private pool: Piscina | undefined;

  /**
   * Runs the worker's `name` function on `input`. When it takes longer than TASK_TIMEOUT_MS, rejects with
   * `timedOut(seconds)` instead.
   */
  async run<Name extends keyof WorkerTasks>(
    name: Name,
    input: Parameters<WorkerTasks[Name]>[0],
    timedOut: (seconds: number) => Error,
  ): Promise<Awaited<ReturnType<WorkerTasks[Name]>>> {
    this.pool ??= new Piscina({
      // The worker module beside this one: .js when built, .ts when tests run the sources through tsx.
      filename: fileURLToPath(
        new URL(`./environment-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
      ),
      minThreads: 0,
      maxThreads: Math.max(1, Math.min(2, availableParallelism() - 1)),
      idleTimeout: 60_000,
    });
    try {
      return (await this.pool.run(input, {
        name,
        signal: AbortSignal.timeout(TASK_TIMEOUT_MS),
      })) as Awaited<ReturnType<WorkerTasks[Name]>>;
    } catch (error) {
      const name = (error as { name?: string }).name;
      if (name === 'AbortError' || name === 'TimeoutError') throw timedOut(TASK_TIMEOUT_MS / 1000);
      throw error;
    }
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}
