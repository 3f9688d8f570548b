#!/usr/bin/env node
// Type-checks every ```ts block of README.md, docs/*.md and the packages' READMEs (what npm shows) against the
// built packages, so the examples stay true.
// Part of `npm run lint`. The blocks are written to a temporary folder inside examples/sample-client (so that
// package resolution finds @confbus/*), checked with the repository's strict settings, then removed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
  ...['packages', 'examples'].flatMap((base) =>
    readdirSync(join(root, base))
      .map((name) => `${base}/${name}/README.md`)
      .filter((document) => existsSync(join(root, document))),
  ),
];
const blocks = documents.flatMap((document) =>
  [...readFileSync(join(root, document), 'utf8').matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]),
);
const dir = join(root, 'examples/sample-client/.readme-check');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
try {
  const files = blocks.map((code, i) => {
    const file = join(dir, `snippet-${i + 1}.ts`);
    writeFileSync(file, `${code}\nexport {};\n`);
    return file;
  });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.base.json',
      compilerOptions: {
        noEmit: true,
        composite: false,
        declaration: false,
        declarationMap: false,
        // NestJS examples (docs/frameworks.md, packages/nestjs) use the legacy decorators Nest is built on.
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
      files: files.map((f) => f.slice(dir.length + 1)),
    }),
  );
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', dir], {
    stdio: 'inherit',
  });
  console.log(`README.md, docs/ and package READMEs: ${blocks.length} TypeScript example(s) type-check`);
} catch {
  console.error('README.md, docs/ or a package README: a TypeScript example does not type-check (see above)');
  process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
