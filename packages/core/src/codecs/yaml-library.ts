/**
 * The `yaml` package, reached through one function so that the CLI's bundle can load it at its first use:
 * scripts/bundle-cli.mjs replaces this module there with a require() of a one-file copy beside the chunks, so
 * `confbus run` without a YAML settings file never reads yaml's code (about a third of a bare Node start,
 * docs/benchmarks.md). Here it stays a static import, which any bundler an application uses follows.
 */
import * as yaml from 'yaml';

export function yamlLibrary(): typeof yaml {
  return yaml;
}
