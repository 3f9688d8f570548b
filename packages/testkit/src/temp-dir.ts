import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir {
  readonly path: string;
  remove(): Promise<void>;
}

/** A fresh temporary directory; `remove()` deletes it (call it from the test's `after`). */
export async function makeTempDir(prefix = 'confbus-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
