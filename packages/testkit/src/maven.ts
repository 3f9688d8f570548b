/**
 * Builds the Java test peers under interop/ (Spring Boot apps, Spring Cloud Config Server, oracles) with
 * Maven, once per content: a build is keyed by a hash of the project's files and goals, and reused from
 * `target/` while they are unchanged. Maven runs offline (`-o`) first, so a machine whose local
 * repository (~/.m2) already holds everything never touches the network; only when offline resolution
 * fails does it run again online, which is the first, downloading run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export interface MavenBuild {
  /** The project directory that was built. */
  readonly dir: string;
  /** The runnable jar the build produced (the newest jar in target/), when there is one. */
  readonly jar?: string;
  /** target/lib (or target/dependency), when the build copied its dependencies there (dependency:copy-dependencies). */
  readonly classpathDir?: string;
}

export interface MavenBuildOptions {
  /** Goals and extra arguments (default `['package']`), e.g. `['-Pbus-kafka', 'package']`. */
  readonly goals?: readonly string[];
  /** Progress and Maven's output, line by line (default: progress lines to stderr). */
  readonly log?: (line: string) => void;
}

export type JavaToolchain = { ok: true } | { ok: false; reason: string };

/** The lowest Java the peers run on (Spring Boot 4 needs 17). */
const MIN_JAVA = 17;
/** Maven's own chatter is kept out; failures print the last lines of what it said. */
const MAVEN_FLAGS = ['-B', '-q', '--no-transfer-progress', '-DskipTests'];
/** Extra arguments for every Maven run, e.g. `-Dmaven.repo.local=/tmp/m2` to measure a cold download. */
const EXTRA_ARGS_ENV = 'CONFBUS_MAVEN_ARGS';
const FAILURE_TAIL_LINES = 40;
/** Output that means "something is not in the local repository", the one case where going online helps. */
const OFFLINE_MISS =
  /offline mode|could not be resolved|Could not resolve|Could not find artifact|Cannot access .* in offline/i;

let toolchain: JavaToolchain | undefined;

/** Whether `java` (17 or newer) and `mvn` are on PATH; the reason names what is missing when not. */
export function javaToolchain(): JavaToolchain {
  toolchain ??= probeToolchain();
  return toolchain;
}

function probeToolchain(): JavaToolchain {
  const java = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) {
    return { ok: false, reason: `java is not on PATH (a JDK ${MIN_JAVA} or newer is needed)` };
  }
  // `java -version` prints to stderr: openjdk version "17.0.15" / "1.8.0_392".
  const version = /version "(\d+)(?:\.(\d+))?/.exec(java.stderr);
  const major = version ? (version[1] === '1' ? Number(version[2]) : Number(version[1])) : NaN;
  if (!(major >= MIN_JAVA)) {
    return { ok: false, reason: `java ${version?.[0] ?? '(unknown version)'} is older than ${MIN_JAVA}` };
  }
  const mvn = spawnSync('mvn', ['--version'], { encoding: 'utf8' });
  if (mvn.error || mvn.status !== 0) return { ok: false, reason: 'mvn (Apache Maven) is not on PATH' };
  return { ok: true };
}

/** Builds (or reuses) the Maven project in `dir`; rejects naming the project and Maven's last lines. */
export async function buildMavenProject(dir: string, options: MavenBuildOptions = {}): Promise<MavenBuild> {
  const check = javaToolchain();
  if (!check.ok) throw new Error(`Cannot build ${dir}: ${check.reason}`);
  const goals = options.goals ?? ['package'];
  const log = options.log ?? ((line: string) => process.stderr.write(`[maven] ${line}\n`));
  const key = await projectKey(dir, goals);
  const target = join(dir, 'target');
  const stampFile = join(target, `.confbus-build-${key}.json`);

  const cached = await readStamp(stampFile);
  if (cached) return cached;
  await mkdir(target, { recursive: true });
  const release = await lockProject(target, log);
  try {
    // Another process may have built it while this one waited for the lock.
    const built = await readStamp(stampFile);
    if (built) return built;
    const startedAt = Date.now();
    log(`building ${basename(dir)} (${goals.join(' ')}); the first build downloads from Maven Central`);
    const otherBuilds = await jarsOfOtherBuilds(target);
    await removeStaleJars(target, otherBuilds);
    await runMavenOfflineFirst(dir, goals, log);
    const jar = await builtJar(target, otherBuilds);
    const classpathDir = ['lib', 'dependency']
      .map((name) => join(target, name))
      .find((path) => existsSync(path));
    // Only the keys that have a value: the same object whether fresh or read back from the stamp.
    const result: MavenBuild = { dir, ...(jar && { jar }), ...(classpathDir && { classpathDir }) };
    await writeFile(stampFile, JSON.stringify(result));
    log(`built ${basename(dir)} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
    return result;
  } finally {
    await release();
  }
}

async function readStamp(stampFile: string): Promise<MavenBuild | undefined> {
  try {
    const build = JSON.parse(await readFile(stampFile, 'utf8')) as MavenBuild;
    const outputs = [build.jar, build.classpathDir].filter((path) => path !== undefined);
    return outputs.every((path) => existsSync(path)) ? build : undefined;
  } catch {
    return undefined;
  }
}

/** sha256 over the goals and every file's path and bytes, target/ and dot-files excluded. */
async function projectKey(dir: string, goals: readonly string[]): Promise<string> {
  if (!existsSync(join(dir, 'pom.xml'))) throw new Error(`${dir} is not a Maven project (no pom.xml)`);
  const hash = createHash('sha256').update(JSON.stringify(goals));
  for (const file of await projectFiles(dir, dir)) {
    hash.update(`\0${file}\0`).update(await readFile(join(dir, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

async function projectFiles(root: string, dir: string): Promise<string[]> {
  const files: string[] = [];
  for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    if (entry.name.startsWith('.') || (dir === root && entry.name === 'target')) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await projectFiles(root, full)));
    else if (entry.isFile()) files.push(relative(root, full));
  }
  return files;
}

async function runMavenOfflineFirst(dir: string, goals: readonly string[], log: (line: string) => void) {
  const extra = (process.env[EXTRA_ARGS_ENV] ?? '').split(/\s+/).filter(Boolean);
  const offline = await runMaven(dir, ['-o', ...MAVEN_FLAGS, ...extra, ...goals]);
  if (offline.code === 0) return;
  if (!OFFLINE_MISS.test(offline.output.join('\n'))) throw mavenFailure(dir, goals, offline);
  log(`${basename(dir)}: the local Maven repository lacks some artifacts; downloading them`);
  const online = await runMaven(dir, [...MAVEN_FLAGS, ...extra, ...goals]);
  if (online.code !== 0) throw mavenFailure(dir, goals, online);
}

interface MavenRun {
  readonly code: number | null;
  readonly output: string[];
}

function runMaven(dir: string, args: readonly string[]): Promise<MavenRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('mvn', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const output: string[] = [];
    const collect = (chunk: Buffer) => output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

function mavenFailure(dir: string, goals: readonly string[], run: MavenRun): Error {
  const tail = run.output.slice(-FAILURE_TAIL_LINES).join('\n');
  return new Error(`Maven build of ${dir} (${goals.join(' ')}) failed with exit code ${run.code}:\n${tail}`);
}

/**
 * Jars that other goals (e.g. another Maven profile) built and still use: kept, so two variants of one
 * project can live side by side in target/.
 */
async function jarsOfOtherBuilds(target: string): Promise<Set<string>> {
  const jars = new Set<string>();
  for (const name of await readdir(target)) {
    if (!name.startsWith('.confbus-build-')) continue;
    const build = await readStamp(join(target, name));
    if (build?.jar !== undefined) jars.add(build.jar);
  }
  return jars;
}

async function topLevelJars(target: string): Promise<string[]> {
  return (await readdir(target))
    .filter((name) => name.endsWith('.jar') && !/-(sources|javadoc)\.jar$/.test(name))
    .map((name) => join(target, name));
}

/** Maven does not rewrite an up-to-date jar; removing leftovers makes the jar this build wrote the new one. */
async function removeStaleJars(target: string, keep: Set<string>): Promise<void> {
  for (const jar of await topLevelJars(target)) if (!keep.has(jar)) await rm(jar, { force: true });
}

/** The jar this build produced: the newest jar no other build owns (else the newest, for shared names). */
async function builtJar(target: string, otherBuilds: Set<string>): Promise<string | undefined> {
  const jars = await Promise.all(
    (await topLevelJars(target)).map(async (path) => ({ path, mtime: (await stat(path)).mtimeMs })),
  );
  const newestOf = (list: typeof jars) => list.sort((a, b) => b.mtime - a.mtime)[0]?.path;
  return newestOf(jars.filter((jar) => !otherBuilds.has(jar.path))) ?? newestOf(jars);
}

/**
 * One build of a project at a time across processes (test files run in parallel): an exclusive lock
 * directory holding the owner's pid; a lock whose owner is gone is taken over.
 */
async function lockProject(target: string, log: (line: string) => void): Promise<() => Promise<void>> {
  const lock = join(target, '.confbus-build.lock');
  let announced = false;
  for (;;) {
    try {
      await mkdir(lock);
      await writeFile(join(lock, 'pid'), String(process.pid));
      return () => rm(lock, { recursive: true, force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number(await readFile(join(lock, 'pid'), 'utf8').catch(() => 'NaN'));
    if (Number.isInteger(owner) && !isAlive(owner)) {
      await rm(lock, { recursive: true, force: true });
      continue;
    }
    if (!announced) log(`waiting for another process (pid ${owner}) building ${target}`);
    announced = true;
    await delay(250);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
