/**
 * Builds the Java test peers under interop/ with Maven (Maven Central only). A build is cached by a hash of the
 * project's files: when they are unchanged, target/ is reused without running Maven at all; when they changed,
 * Maven runs offline (`-o`) first if the local repository may already hold everything, and online otherwise.
 * (API shared by every engineer: see COORDINATION.md.)
 */
import { execFile, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface MavenBuild {
  readonly dir: string;
  /** The project's main jar (target/*.jar), when it packages one. */
  readonly jar?: string;
  /** target/lib, when the build copies its dependencies there (dependency:copy-dependencies). */
  readonly classpathDir?: string;
}

/** Whether java and mvn are on the PATH; tests that need them report "not run: <reason>" otherwise. */
export function javaToolchain(): { ok: true } | { ok: false; reason: string } {
  for (const [tool, args] of [
    ['java', ['-version']],
    ['mvn', ['-v']],
  ] as const) {
    const result = spawnSync(tool, args, { stdio: 'ignore', timeout: 60_000 });
    if (result.error !== undefined || result.status !== 0) {
      return {
        ok: false,
        reason: `${tool} is not available (${result.error?.message ?? `exit ${result.status}`})`,
      };
    }
  }
  return { ok: true };
}

const STAMP = 'target/.confbus-build-hash';

export async function buildMavenProject(
  dir: string,
  options: { goals?: string[]; log?: (line: string) => void } = {},
): Promise<MavenBuild> {
  const goals = options.goals ?? ['package'];
  const hash = projectHash(dir, goals);
  const stamp = join(dir, STAMP);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) return describeBuild(dir);
  const base = ['-B', '-q', '--no-transfer-progress', ...goals];
  // Offline first when a previous build of this project succeeded: its dependencies are in ~/.m2 already.
  const offlineFirst = existsSync(stamp);
  let outcome = offlineFirst ? await runMaven(dir, ['-o', ...base], options.log) : undefined;
  if (outcome === undefined || outcome.code !== 0) outcome = await runMaven(dir, base, options.log);
  if (outcome.code !== 0) {
    const tail = outcome.output.trim().split('\n').slice(-20).join('\n');
    throw new Error(
      `Maven build of ${dir} (mvn ${base.join(' ')}) failed with exit ${outcome.code}:\n${tail}`,
    );
  }
  writeFileSync(stamp, hash);
  return describeBuild(dir);
}

function describeBuild(dir: string): MavenBuild {
  const target = join(dir, 'target');
  const jar = existsSync(target)
    ? readdirSync(target).find((f) => f.endsWith('.jar') && !f.endsWith('-sources.jar'))
    : undefined;
  const lib = join(target, 'lib');
  return {
    dir,
    ...(jar ? { jar: join(target, jar) } : {}),
    ...(existsSync(lib) ? { classpathDir: lib } : {}),
  };
}

/** pom.xml and everything under src/, plus the goals: what decides whether target/ is still valid. */
function projectHash(dir: string, goals: readonly string[]): string {
  const hash = createHash('sha256').update(goals.join(' '));
  const files = [join(dir, 'pom.xml'), ...listFiles(join(dir, 'src'))].filter((f) => existsSync(f)).sort();
  for (const file of files)
    hash.update(relative(dir, file)).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

function runMaven(
  dir: string,
  args: readonly string[],
  log: ((line: string) => void) | undefined,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = execFile(
      'mvn',
      [...args],
      { cwd: dir, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, output: `${stdout}${stderr}` });
      },
    );
    if (log) {
      child.stdout?.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach(log));
      child.stderr?.on('data', (chunk: Buffer) => chunk.toString().split('\n').filter(Boolean).forEach(log));
    }
  });
}
