/**
 * The pushes the server noticed on its default label: which commit replaced which, and when. A refresh event
 * only names the commit it announced; this tells the console which commit it replaced, so "the diff a push
 * introduced" covers every commit of a push, not only the last one. Bounded: the newest entries are kept.
 */
import type { ConsolePush } from '@confbus/core';

const KEEP = 200;

export class PushLog {
  private readonly pushes: ConsolePush[] = [];
  private current: string | undefined;

  /** Records the default label's commit after an upstream check; returns the push when it moved. */
  observe(commit: string, now = new Date()): ConsolePush | undefined {
    const previous = this.current;
    this.current = commit;
    if (previous === undefined || previous === commit) return undefined;
    const push = { commit, previous, at: now.toISOString() };
    this.pushes.push(push);
    if (this.pushes.length > KEEP) this.pushes.shift();
    return push;
  }

  /** The commit a push of `commit` replaced, when the server saw that push. */
  previousOf(commit: string): string | undefined {
    for (let i = this.pushes.length - 1; i >= 0; i--)
      if (this.pushes[i]?.commit === commit) return this.pushes[i]?.previous;
    return undefined;
  }

  /** Newest first. */
  latest(count: number): ConsolePush[] {
    return this.pushes.slice(-count).reverse();
  }
}
