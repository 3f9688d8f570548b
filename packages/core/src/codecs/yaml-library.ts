/**
 * The `yaml` package, loaded at its first use rather than with core: a command that decodes no YAML (`confbus
 * run` without a YAML settings file, the client fetching JSON) then never reads its ~140 files, which cost about
 * a third of a bare Node start (docs/benchmarks.md, `confbus run`). Synchronous, as parsing is: a require() of
 * its CommonJS build (the one Node's ESM import loads too, so the module is the same either way). The CLI's
 * bundle points this require at a one-file copy beside it (scripts/bundle-cli.mjs).
 */
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

export function yamlLibrary(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
