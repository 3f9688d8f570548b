// In-memory view of the mirror's branches and tags, rebuilt after each fetch, so resolving a
// branch or tag label on the warm path spawns no process.

export interface RefSnapshot {
  /** branch name -> commit id */
  readonly branches: ReadonlyMap<string, string>;
  /** tag name -> commit id (annotated tags peeled; tags of non-commits left out) */
  readonly tags: ReadonlyMap<string, string>;
  /** full ref name -> object id as stored (unpeeled), for comparison with `ls-remote` */
  readonly raw: ReadonlyMap<string, string>;
}

/** The `for-each-ref` format `parseForEachRef` expects. */
export const FOR_EACH_REF_FORMAT = '%(objectname) %(objecttype) %(*objectname) %(*objecttype) %(refname)';

export function parseForEachRef(output: string): RefSnapshot {
  const branches = new Map<string, string>();
  const tags = new Map<string, string>();
  const raw = new Map<string, string>();
  for (const line of output.split('\n')) {
    if (line === '') continue;
    // Ref names cannot contain spaces, so the first four fields split cleanly; peeled fields may be empty.
    const [oid = '', type = '', peeledOid = '', peeledType = '', ...rest] = line.split(' ');
    const ref = rest.join(' ');
    raw.set(ref, oid);
    if (ref.startsWith('refs/heads/') && type === 'commit')
      branches.set(ref.slice('refs/heads/'.length), oid);
    else if (ref.startsWith('refs/tags/')) {
      const name = ref.slice('refs/tags/'.length);
      if (type === 'commit') tags.set(name, oid);
      else if (type === 'tag' && peeledType === 'commit') tags.set(name, peeledOid);
    }
  }
  return { branches, tags, raw };
}

/** Parses `git ls-remote --refs` output into full ref name -> object id. */
export function parseLsRemote(output: string): Map<string, string> {
  const refs = new Map<string, string>();
  for (const line of output.split('\n')) {
    const tab = line.indexOf('\t');
    if (tab < 0) continue;
    const ref = line.slice(tab + 1);
    if (ref.startsWith('refs/heads/') || ref.startsWith('refs/tags/')) refs.set(ref, line.slice(0, tab));
  }
  return refs;
}

export function sameRefs(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [ref, oid] of a) if (b.get(ref) !== oid) return false;
  return true;
}

/** Every ref of `wanted` is in `have` with the same object id (`have` may hold more). */
export function hasAllRefs(have: ReadonlyMap<string, string>, wanted: ReadonlyMap<string, string>): boolean {
  for (const [ref, oid] of wanted) if (have.get(ref) !== oid) return false;
  return true;
}
