// The mirror's own branches and tags, held in memory and re-read after each change, so resolving a label on
// the warm path spawns no process. `fetched` says whether a state can be served at all.
import type { MirrorGit } from './mirror-git.js';
import { FOR_EACH_REF_FORMAT, parseForEachRef, type RefSnapshot } from './refs.js';

const NO_REFS: ReadonlyMap<string, string> = new Map();

export class LocalRefs {
  snapshot: RefSnapshot | undefined;
  /** The first clone finished (in this run or an adopted earlier one). */
  fetched = false;

  constructor(private readonly git: MirrorGit) {}

  /** Full ref name -> object id as stored (empty before the first load). */
  get raw(): ReadonlyMap<string, string> {
    return this.snapshot?.raw ?? NO_REFS;
  }

  get count(): number {
    return this.raw.size;
  }

  async load(): Promise<RefSnapshot> {
    const { stdout } = await this.git.run([
      'for-each-ref',
      `--format=${FOR_EACH_REF_FORMAT}`,
      'refs/heads',
      'refs/tags',
    ]);
    this.snapshot = parseForEachRef(stdout.toString('utf8'));
    return this.snapshot;
  }
}
