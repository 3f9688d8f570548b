// The built console (npm run build) works offline and stays small: everything the page loads is its own file,
// referenced relatively with a content hash, and its JavaScript is at most 150 KB gzipped.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const DIST = fileURLToPath(new URL('../dist/page/', import.meta.url));

describe('console bundle', () => {
  it('loads only its own hashed files, with no inline script', async () => {
    const html = await readFile(join(DIST, 'index.html'), 'utf8');
    const references = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(references.length >= 2, html);
    for (const reference of references.filter((r) => !r.startsWith('data:')))
      assert.match(
        reference,
        /^\.\/assets\/[\w-]+-[\w-]{8}\.(?:js|css)$/,
        `${reference} is a local hashed asset`,
      );
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, 'no inline script (the CSP forbids it)');
    for (const file of await readdir(join(DIST, 'assets'))) {
      const text = await readFile(join(DIST, 'assets', file), 'utf8');
      assert.doesNotMatch(text, /@import|url\(\s*["']?https?:/, `${file} pulls nothing from the network`);
    }
  });

  it('keeps its JavaScript at most 150 KB gzipped', async () => {
    let bytes = 0;
    for (const file of await readdir(join(DIST, 'assets')))
      if (file.endsWith('.js'))
        bytes += gzipSync(await readFile(join(DIST, 'assets', file)), { level: 9 }).length;
    assert.ok(bytes > 0 && bytes <= 150 * 1024, `${bytes} bytes gzipped`);
  });
});
