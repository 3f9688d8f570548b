// The mirror's own branches and tags, held in memory and re-read after each change, so resolving a label on
// the warm path spawns no process. `fetched` says whether a state can be served at all.
import type { CatFileBatch } from './cat-file-batch.js';
import type { MirrorGit } from './mirror-git.js';
import { FOR_EACH_REF_FORMAT, parseForEachRef, type RefSnapshot } from './refs.js';

/** Larger objects behind a moved ref are typed without their content (a tag this large: for-each-ref peels it). */
const REF_OBJECT_MAX_BYTES = 1 << 20;

const NO_REFS: ReadonlyMap<string, string> = new Map();

export class LocalRefs {
  snapshot: RefSnapshot | undefined;
  /** The first clone finished (in this run or an adopted earlier one). */
  fetched = false;

  constructor(
    private readonly git: MirrorGit,
    private readonly reader: CatFileBatch,
  ) {}

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

  /**
   * The refs after a fetch of `listed` (the upstream's refs as listed just before it, which the fetch's forced
   * refspecs copied into the mirror), without spawning `for-each-ref` on the webhook's path: refs that did not
   * move keep their entries, moved ones are typed (and tags peeled) through the long-lived cat-file reader.
   * A push between the listing and the fetch leaves the mirror ahead of this view; the next check lists it,
   * finds it differs and fetches again (a no-op) to bring the view level. Anything unexpected (an object the
   * reader cannot find) falls back to a full load.
   */
  async applyFetched(listed: ReadonlyMap<string, string>): Promise<RefSnapshot> {
    const before = this.snapshot;
    if (before === undefined) return this.load();
    const raw = new Map(before.raw);
    const branches = new Map(before.branches);
    const tags = new Map(before.tags);
    for (const [ref, oid] of listed) {
      if (before.raw.get(ref) === oid) continue;
      raw.set(ref, oid);
      // Only a tag's header is needed: a ref to a large blob must not bring the blob into memory.
      const object = await this.reader.read(oid, REF_OBJECT_MAX_BYTES);
      if (object === undefined || (object.type === 'tag' && object.content === undefined)) return this.load();
      if (ref.startsWith('refs/heads/')) {
        const name = ref.slice('refs/heads/'.length);
        if (object.type === 'commit') branches.set(name, oid);
        else branches.delete(name);
      } else if (ref.startsWith('refs/tags/')) {
        const name = ref.slice('refs/tags/'.length);
        // As for-each-ref's %(*objectname): an annotated tag is peeled once; tags of non-commits are left out.
        const target = object.type === 'tag' && object.content ? taggedCommit(object.content) : undefined;
        const commit = object.type === 'commit' ? oid : target;
        if (commit !== undefined) tags.set(name, commit);
        else tags.delete(name);
      }
    }
    this.snapshot = { branches, tags, raw };
    return this.snapshot;
  }
}

/** The commit an annotated tag object names (its `object` header when `type commit`), else undefined. */
function taggedCommit(content: Buffer): string | undefined {
  const header = content.toString('utf8', 0, Math.min(content.length, 512));
  const object = /^object ([0-9a-f]{40,64})\n/.exec(header)?.[1];
  return object !== undefined && /\ntype commit\n/.test(header) ? object : undefined;
}
