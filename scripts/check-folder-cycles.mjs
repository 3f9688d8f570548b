#!/usr/bin/env node
// Fails when the folders of a package's src/ import each other in a loop (a → b → … → a), type imports
// included: a newcomer reads a package's folders as layers, and a loop means one of them is not a layer.
// Written here rather than taken from madge or dependency-cruiser because both find cycles between modules,
// and the rule is about folders: two files may depend on each other's folder without any module cycle.
// Files directly in src/ (the composition root) are the top layer and take no part.
//
// Usage: node scripts/check-folder-cycles.mjs [--graph]   (--graph prints each package's folder edges)
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
/**
 * Loops that exist and are still to be removed: reported, not failed on. Only ever shrink this list; a loop
 * not named here (or a larger one) fails the check.
 */
const KNOWN_LOOPS = new Map();
const showGraph = process.argv.includes('--graph');

function sourceFiles(dir, out = []) {
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (statSync(full).isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The top folder of `file` under `src` (undefined for a file directly in src/). */
function folderOf(src, file) {
  const parts = relative(src, file).split(sep);
  return parts.length > 1 ? parts[0] : undefined;
}

/** folder → folders it imports (relative imports only: other packages are layered by package.json). */
function folderGraph(src) {
  const edges = new Map();
  for (const file of sourceFiles(src)) {
    const from = folderOf(src, file);
    if (from === undefined) continue;
    const { importedFiles } = ts.preProcessFileInfo
      ? ts.preProcessFileInfo(readFileSync(file, 'utf8'))
      : ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const to = folderOf(src, resolve(dirname(file), fileName));
      if (to === undefined || to === from || to.startsWith('..')) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      const targets = edges.get(from);
      if (!targets.has(to)) targets.set(to, relative(src, file));
    }
  }
  return edges;
}

/** The strongly connected components with more than one folder (Tarjan). */
function loops(edges) {
  let index = 0;
  const state = new Map();
  const stack = [];
  const found = [];
  const visit = (node) => {
    state.set(node, { index, low: index, onStack: true });
    index++;
    stack.push(node);
    for (const next of edges.get(node)?.keys() ?? []) {
      if (!state.has(next)) {
        visit(next);
        state.get(node).low = Math.min(state.get(node).low, state.get(next).low);
      } else if (state.get(next).onStack) {
        state.get(node).low = Math.min(state.get(node).low, state.get(next).index);
      }
    }
    if (state.get(node).low === state.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  return found;
}

let failed = false;
let knownFound = false;
for (const pkg of readdirSync(join(root, 'packages'))) {
  const src = join(root, 'packages', pkg, 'src');
  try {
    statSync(src);
  } catch {
    continue;
  }
  const edges = folderGraph(src);
  if (showGraph)
    for (const [from, targets] of edges) console.log(`${pkg}: ${from} -> ${[...targets.keys()].join(' ')}`);
  for (const component of loops(edges)) {
    const known = KNOWN_LOOPS.get(pkg) === component.join(', ');
    if (known) knownFound = true;
    else failed = true;
    const members = new Set(component);
    const through = component.flatMap((from) =>
      [...(edges.get(from) ?? [])]
        .filter(([to]) => members.has(to))
        .map(([to, file]) => `    ${from} -> ${to} (${file})`),
    );
    console.error(
      `packages/${pkg}/src: folders import each other in a loop: ${component.join(', ')}${known ? ' (known, to be removed: not failed on)' : ''}`,
    );
    console.error(through.join('\n'));
  }
}
if (failed) process.exit(1);
console.log(
  knownFound
    ? 'check-folder-cycles: no new folder-level import loops in packages/*/src (known ones above)'
    : 'check-folder-cycles: no folder-level import loops in packages/*/src',
);
