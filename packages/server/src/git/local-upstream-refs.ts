// The refs of an upstream on this machine (a path or file:// uri), read from its files instead of spawning
// `git ls-remote`, which execs git and then git-upload-pack for every check (~5 ms of CPU each, the whole cost
// of an upstream check with refresh-rate 0). Loose refs are read before packed-refs, as git does, so a
// concurrent `git pack-refs` (which writes packed-refs before deleting the loose files) never hides a ref.
//
// Only the plain layout is read: anything this reader does not model (a gitfile or linked worktree, reftable,
// hidden refs, symbolic or unusual refs, any read error) answers `undefined`, and the caller spawns
// `git ls-remote`, whose answer and error messages are git's own.
import { readFile, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
const NAMESPACES = ['refs/heads', 'refs/tags'] as const;

/** The local repository path a uri names, or undefined when it is not a local one (or not an absolute path). */
export function localUpstreamPath(uri: string): string | undefined {
  if (/^file:\/\//i.test(uri)) {
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  }
  return uri.startsWith('/') ? uri : undefined;
}

/** Reads the refs of the repository at `path`; undefined when it cannot be done faithfully (see above). */
export async function readLocalUpstreamRefs(path: string): Promise<Map<string, string> | undefined> {
  try {
    const gitDir = await findGitDir(path);
    if (gitDir === undefined || !(await isPlainLayout(gitDir))) return undefined;
    const loose = new Map<string, string>();
    for (const namespace of NAMESPACES) {
      if (!(await readLooseRefs(gitDir, namespace, loose))) return undefined;
    }
    const refs = await readPackedRefs(gitDir);
    if (refs === undefined) return undefined;
    for (const [name, oid] of loose) refs.set(name, oid);
    return refs;
  } catch {
    return undefined;
  }
}

/** Where git's upload-pack would enter for `path`: `path/.git`, `path`, `path.git/.git`, `path.git`. */
async function findGitDir(path: string): Promise<string | undefined> {
  const base = resolve(path);
  for (const candidate of [join(base, '.git'), base, join(`${base}.git`, '.git'), `${base}.git`]) {
    const info = await stat(candidate).catch(() => undefined);
    if (info === undefined) continue;
    // A gitfile (`.git` naming another directory) is git's to follow.
    if (!info.isDirectory()) return undefined;
    const head = await stat(join(candidate, 'HEAD')).catch(() => undefined);
    const objects = await stat(join(candidate, 'objects')).catch(() => undefined);
    if (head?.isFile() && objects?.isDirectory()) return candidate;
  }
  return undefined;
}

/** Files-backend refs, no linked worktree, no refs hidden from clients (maybe through an include). */
async function isPlainLayout(gitDir: string): Promise<boolean> {
  for (const name of ['reftable', 'commondir']) {
    if ((await stat(join(gitDir, name)).catch(() => undefined)) !== undefined) return false;
  }
  const config = await readFile(join(gitDir, 'config'), 'utf8').catch(() => '');
  return !/hiderefs|\[include|\[includeif|refstorage/i.test(config);
}

/** Adds the loose refs under `dir` to `out`; false on anything unexpected. */
async function readLooseRefs(gitDir: string, dir: string, out: Map<string, string>): Promise<boolean> {
  const entries = await readdir(join(gitDir, dir), { withFileTypes: true }).catch((error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : undefined,
  );
  if (entries === undefined) return false;
  for (const entry of entries) {
    const name = `${dir}/${entry.name}`;
    if (entry.name.endsWith('.lock')) continue; // a ref being written: its old value is still current
    if (!isPlainRefComponent(entry.name)) return false;
    if (entry.isDirectory()) {
      if (!(await readLooseRefs(gitDir, name, out))) return false;
    } else if (entry.isFile()) {
      const content = await readFile(join(gitDir, name), 'utf8').catch((error: unknown) =>
        // Deleted meanwhile (packed by pack-refs, or deleted): packed-refs, read next, has the truth.
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? null : undefined,
      );
      if (content === null) continue;
      const oid = content?.trim();
      if (oid === undefined || !OBJECT_ID.test(oid)) return false; // symbolic ref or damage: git's call
      out.set(name, oid);
    } else return false;
  }
  return true;
}

/** A path component git accepts in a ref name without question (check-ref-format, conservatively). */
function isPlainRefComponent(component: string): boolean {
  return /^[A-Za-z0-9_+-][A-Za-z0-9._+-]*$/.test(component) && !component.includes('..');
}

async function readPackedRefs(gitDir: string): Promise<Map<string, string> | undefined> {
  const refs = new Map<string, string>();
  const text = await readFile(join(gitDir, 'packed-refs'), 'utf8').catch((error: unknown) =>
    (error as NodeJS.ErrnoException).code === 'ENOENT' ? '' : undefined,
  );
  if (text === undefined) return undefined;
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#') || line.startsWith('^')) continue;
    const space = line.indexOf(' ');
    const oid = line.slice(0, space);
    const name = line.slice(space + 1);
    if (space < 0 || !OBJECT_ID.test(oid)) return undefined;
    if (!NAMESPACES.some((namespace) => name.startsWith(`${namespace}/`))) continue;
    if (!name.split('/').every(isPlainRefComponent)) return undefined;
    refs.set(name, oid);
  }
  return refs;
}
