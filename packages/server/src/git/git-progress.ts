// Reads `git fetch --progress` output as it streams, so a long clone can say how far it got. Git rewrites a
// progress line in place with \r and prints the remote's phases with a "remote: " prefix, e.g.
//   remote: Counting objects:  45% (450/1000)
//   Receiving objects:  12% (1234/10000), 5.12 MiB | 2.50 MiB/s
//   Resolving deltas:  50% (10/20)

export interface FetchProgress {
  /** git's phase name, e.g. "Receiving objects" (remote phases keep their "remote: " prefix). */
  phase: string;
  percent?: number;
  done: number;
  total?: number;
  /** Bytes received so far as git prints them ("5.12 MiB"); only while receiving objects. */
  received?: string;
  /** Transfer rate as git prints it ("2.50 MiB/s"). */
  rate?: string;
}

const WITH_PERCENT =
  /^((?:remote: )?[A-Z][a-z]+(?: [a-z]+)*):\s+(\d+)% \((\d+)\/(\d+)\)(?:, ([\d.]+ [KMGT]?i?B)(?: \| ([\d.]+ [KMGT]?i?B\/s))?)?/;
const COUNT_ONLY = /^((?:remote: )?[A-Z][a-z]+(?: [a-z]+)*): (\d+)(?:,|\s*$)/;

/** Parses one progress line; undefined for anything else. */
export function parseProgressLine(line: string): FetchProgress | undefined {
  const full = WITH_PERCENT.exec(line);
  if (full) {
    const [, phase = '', percent = '0', done = '0', total = '0', received, rate] = full;
    return {
      phase,
      percent: Number(percent),
      done: Number(done),
      total: Number(total),
      ...(received !== undefined ? { received } : {}),
      ...(rate !== undefined ? { rate } : {}),
    };
  }
  const count = COUNT_ONLY.exec(line);
  if (count && !line.startsWith('remote: Total')) {
    const [, phase = '', done = '0'] = count;
    return { phase, done: Number(done) };
  }
  return undefined;
}

/** Keeps the latest progress state of a running fetch, fed with stderr chunks as they arrive. */
export class ProgressTracker {
  private partial = '';
  private current: FetchProgress | undefined;

  feed(chunk: string): void {
    const segments = (this.partial + chunk).split(/[\r\n]/);
    this.partial = segments.pop() ?? '';
    for (const segment of segments) {
      const progress = parseProgressLine(segment.trim());
      if (progress) this.current = progress;
    }
    // A line being rewritten in place has no terminator yet; its latest state is still worth knowing.
    const pending = parseProgressLine(this.partial.trim());
    if (pending) this.current = pending;
  }

  latest(): FetchProgress | undefined {
    return this.current;
  }
}
