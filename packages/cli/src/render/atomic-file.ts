/**
 * Replaces a file so that a reader sees the old content or the new, never half of it: write a temporary file in
 * the same directory (rename is atomic only within one file system), fsync it, rename it over the target, and
 * fsync the directory so the rename itself survives a crash. The temporary file is removed on any failure,
 * and the target is then untouched.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** New files are readable by their owner only: a rendered file often holds secrets. */
export const DEFAULT_NEW_FILE_MODE = 0o600;

export async function writeFileAtomically(path: string, content: string, mode?: number): Promise<void> {
  const fileMode = mode ?? (await existingMode(path)) ?? DEFAULT_NEW_FILE_MODE;
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', fileMode);
    try {
      await handle.writeFile(content, 'utf8');
      // open()'s mode is masked by the umask; the file gets the one asked for.
      await handle.chmod(fileMode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dirname(path));
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}

async function syncDirectory(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } catch {
    // Some file systems cannot fsync a directory (EINVAL); the rename has happened all the same.
  } finally {
    await handle.close();
  }
}
