/**
 * Talks to interop/crypto-oracle (Spring's own encryption classes in a JVM) over its line protocol: one
 * request line of base64 fields (operation, settings, input), one answer line ("ok"/"error" + base64).
 * Requests are answered in order, one at a time.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { delimiter, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildMavenProject } from '@confbus/testkit/maven';

export const ORACLE_DIR = fileURLToPath(new URL('../../../interop/crypto-oracle', import.meta.url));

export type OracleSettings = Readonly<Record<string, string>>;
export type OracleAnswer = { ok: true; value: string } | { ok: false; error: string };

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const pairs = (entries: ReadonlyArray<readonly [string, string]>): string => entries.flat().join('\u0000');

export class SpringCryptoOracle {
  private readonly answers: Array<(line: string) => void> = [];
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => this.answers.shift()?.(line));
  }

  /** Builds the oracle with Maven (cached) and starts it. */
  static async start(log?: (line: string) => void): Promise<SpringCryptoOracle> {
    const build = await buildMavenProject(ORACLE_DIR, log ? { log } : {});
    if (build.jar === undefined || build.classpathDir === undefined) {
      throw new Error(`The crypto oracle build made no jar or class path in ${ORACLE_DIR}/target`);
    }
    const classpath = [build.jar, join(build.classpathDir, '*')].join(delimiter);
    const child = spawn('java', ['-cp', classpath, 'confbus.oracle.CryptoOracle'], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const oracle = new SpringCryptoOracle(child);
    const ready = await new Promise<string>((resolve, reject) => {
      oracle.answers.push(resolve);
      child.once('exit', (code) =>
        reject(new Error(`the crypto oracle exited (${code}) before it was ready`)),
      );
    });
    if (ready !== 'ready') throw new Error(`the crypto oracle said '${ready}' instead of ready`);
    return oracle;
  }

  request(operation: string, settings: OracleSettings, input: string): Promise<OracleAnswer> {
    const next = this.queue.then(
      () =>
        new Promise<OracleAnswer>((resolve) => {
          this.answers.push((line) => {
            const [status, field = ''] = line.split('\t');
            const text = Buffer.from(field, 'base64').toString('utf8');
            resolve(status === 'ok' ? { ok: true, value: text } : { ok: false, error: text });
          });
          this.child.stdin!.write(
            `${b64(operation)}\t${b64(pairs(Object.entries(settings)))}\t${b64(input)}\n`,
          );
        }),
    );
    this.queue = next;
    return next;
  }

  /** The value, or a thrown Error naming Spring's exception. */
  async expect(operation: string, settings: OracleSettings, input: string): Promise<string> {
    const answer = await this.request(operation, settings, input);
    if (!answer.ok) throw new Error(`Spring's ${operation} failed: ${answer.error}`);
    return answer.value;
  }

  /** CipherEnvironmentEncryptor over one property source: the entries it leaves, in order. */
  async environment(
    settings: OracleSettings,
    entries: ReadonlyArray<readonly [string, string]>,
  ): Promise<Array<[string, string]>> {
    const flat = (await this.expect('environment', settings, pairs(entries))).split('\u0000');
    const out: Array<[string, string]> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i] ?? '', flat[i + 1] ?? '']);
    return out;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.end();
    await exited;
  }
}
