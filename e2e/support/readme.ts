/**
 * README.md's code blocks as the tests that run or compile them read them: straight from the file, so a test
 * exercises what a reader copies, never a copy of it.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The fenced ````language` blocks of the README's section under `heading` (up to the next heading of the same
 * or a higher level), or of the whole file without a heading; in order, fences stripped. `checkout`: whose
 * README (default: this one; a test running a fresh clone reads the clone's).
 */
export async function readmeBlocks(
  language: string,
  heading?: string,
  checkout: string = CHECKOUT,
): Promise<[string, ...string[]]> {
  let text = await readFile(join(checkout, 'README.md'), 'utf8');
  if (heading !== undefined) text = section(text, heading);
  const blocks = [...text.matchAll(new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\``, 'gm'))].map(
    (match) => match[1] as string,
  );
  const [first, ...rest] = blocks;
  assert.ok(first !== undefined, `README.md has a ${language} block${heading ? ` under ${heading}` : ''}`);
  return [first, ...rest];
}

/** The text under `heading` up to the next heading of its level or higher (a `# comment` in a code block is none). */
function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  assert.ok(start >= 0, `README.md has the heading ${heading}`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  let inFence = false;
  let end = start + 1;
  for (; end < lines.length; end++) {
    const line = lines[end] as string;
    if (line.startsWith('```')) inFence = !inFence;
    const hashes = /^(#+) /.exec(line)?.[1]?.length;
    if (!inFence && hashes !== undefined && hashes <= level) break;
  }
  return lines.slice(start + 1, end).join('\n');
}
