/**
 * Seeded random configuration repositories for the differential test: the same seed gives the same files,
 * so a difference found once can be replayed (`CONFBUS_DIFF_SEED`). Each repository has an application
 * with plain, profile and multi-document files in YAML and .properties, nested keys, lists, placeholders,
 * YAML 1.1 scalars, and a second branch.
 */

/** mulberry32: a small, good-enough PRNG; Math.random cannot be seeded. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface RandomRepo {
  readonly app: string;
  readonly profiles: readonly string[];
  /** Files of the default branch (master). */
  readonly master: Record<string, string>;
  /** Files changed on the second branch, `release`. */
  readonly release: Record<string, string>;
}

/** YAML 1.1 / SnakeYAML scalars whose typing differs between YAML libraries, written as plain scalars. */
const YAML_SCALARS = [
  'yes',
  'no',
  'on',
  'off',
  'true',
  'False',
  'NULL',
  '~',
  '0x1F',
  '017',
  '0o17',
  '1_000',
  '+12',
  '-0',
  '1e3',
  '1.5e-3',
  '.inf',
  '-.Inf',
  '.NaN',
  '2001-12-14',
  '2001-12-14t21:59:43.10-05:00',
  '12:30:45',
  '3.14',
  '0.1',
  '100000000000000000000',
  '-12345678901234567891',
  '9007199254740993',
  '1.0',
  '-0.0',
  '1e20',
  '1e7',
  '0.000999',
  '2.5E-7',
  "'quoted'",
  '"double quoted"',
  'plain text',
  '',
];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'server', 'pool', 'timeout', 'url', 'name', 'retry'];

class Picker {
  private count = 0;
  constructor(private readonly random: () => number) {}
  /** 1, 2, 3...: unique key names. */
  serial(): number {
    return ++this.count;
  }
  int(max: number): number {
    return Math.floor(this.random() * max);
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)]!;
  }
  chance(p: number): boolean {
    return this.random() < p;
  }
}

/** A nested YAML mapping of `depth` levels, as lines indented by `indent`. */
function yamlTree(p: Picker, depth: number, indent: string, refs: string[], prefix: string): string[] {
  const lines: string[] = [];
  const keys = [...new Set(Array.from({ length: 1 + p.int(3) }, () => p.pick(WORDS)))];
  for (const key of keys) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const kind = depth > 0 ? p.int(4) : 3;
    if (kind === 0) {
      lines.push(`${indent}${key}:`, ...yamlTree(p, depth - 1, `${indent}  `, refs, path));
    } else if (kind === 1) {
      lines.push(`${indent}${key}:`);
      for (let i = 0; i < 1 + p.int(3); i++) lines.push(`${indent}  - ${p.pick(YAML_SCALARS) || 'item'}`);
    } else if (kind === 2 && refs.length > 0) {
      // Placeholder keys have names of their own, so no key ever refers to itself (Spring rejects cycles).
      // A placeholder alone is written as it resolves to (a boolean, a number), whatever its style.
      lines.push(
        p.chance(0.5)
          ? `${indent}ref${p.serial()}: "\${${p.pick(refs)}}-and-\${missing.${key}:fallback}"`
          : `${indent}ref${p.serial()}: \${${p.pick(refs)}}`,
      );
    } else if (p.chance(0.1)) {
      // Keys of 128 characters or more: SnakeYAML writes them as `? key`, folding one with spaces.
      const long = p.chance(0.5)
        ? `${key}-${'x'.repeat(130)}`
        : `${key} ${Array.from({ length: 30 }, () => p.pick(WORDS)).join(' ')}`;
      lines.push(`${indent}"${long}": ${p.pick(YAML_SCALARS) || 'item'}`);
    } else {
      lines.push(`${indent}${key}: ${p.pick(YAML_SCALARS)}`);
      refs.push(path);
    }
  }
  return lines;
}

function yamlDocument(p: Picker, refs: string[]): string {
  return [...yamlTree(p, 2, '', refs, ''), ''].join('\n');
}

function propertiesFile(p: Picker, refs: string[]): string {
  const lines: string[] = [];
  for (let i = 0; i < 2 + p.int(4); i++) {
    const key = `${p.pick(WORDS)}.${p.pick(WORDS)}`;
    if (p.chance(0.3) && refs.length > 0) {
      lines.push(`ref${p.serial()}.${key}=\${${p.pick(refs)}}`);
      continue;
    }
    lines.push(`${key}=${p.pick(YAML_SCALARS)}`);
    refs.push(key);
  }
  return `${lines.join('\n')}\n`;
}

/** A repository for application `app-<n>` with profiles dev and prod. */
export function randomRepo(seed: number): RandomRepo {
  const p = new Picker(seededRandom(seed));
  const app = `app${seed % 1000}`;
  const refs: string[] = [];
  const shared = yamlDocument(p, refs);
  const plain = yamlDocument(p, refs);
  const devDocument = yamlDocument(p, refs);
  // A multi-document file: the later documents apply to one profile each.
  const multi = [
    plain.trimEnd(),
    '---',
    'spring:\n  config:\n    activate:\n      on-profile: dev',
    devDocument.trimEnd(),
    '---',
    'spring:\n  config:\n    activate:\n      on-profile: prod',
    yamlDocument(p, refs).trimEnd(),
    '',
  ].join('\n');
  const master: Record<string, string> = {
    'application.yml': shared,
    [`${app}.yml`]: multi,
    [`${app}-dev.yml`]: yamlDocument(p, refs),
    [`${app}-prod.properties`]: propertiesFile(p, refs),
    'application-prod.yml': yamlDocument(p, refs),
  };
  const release: Record<string, string> = { [`${app}-dev.yml`]: yamlDocument(p, refs) };
  return { app, profiles: ['default', 'dev', 'prod', 'dev,prod'], master, release };
}
