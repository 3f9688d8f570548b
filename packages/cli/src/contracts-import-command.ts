/**
 * `confbus contracts import <metadata.json | app.jar> --application NAME [--out FILE] [--reject-unknown-keys]`:
 * a contract from Spring Boot's configuration metadata, written to FILE (or standard output) as JSON, ready to be
 * committed as `.confbus/contracts/{NAME}.schema.json`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  contractOfSpringMetadata,
  isZipArchive,
  parseSpringMetadata,
  springMetadataOfJar,
} from '@confbus/contracts';
import { validateApplicationName } from '@confbus/core';
import type { CheckCommandIo } from './check/check-command.js';
import { UsageError } from './command-line.js';
import { parseStrictArguments } from './strict-arguments.js';

export const IMPORT_USAGE = `Usage: confbus contracts import <spring-configuration-metadata.json | JAR> --application NAME
                                [--out FILE] [--reject-unknown-keys]

Makes a contract (JSON Schema 2020-12) from Spring Boot's configuration metadata: the JSON file, or a jar holding
META-INF/spring-configuration-metadata.json (BOOT-INF/classes/… in a fat jar). Written to FILE, else to standard
output; commit it as .confbus/contracts/NAME.schema.json. --reject-unknown-keys also refuses keys under the
metadata's groups that no property declares (misspellings Spring would silently ignore).`;

export async function runImportCommand(args: readonly string[], io: CheckCommandIo): Promise<number> {
  const { values, positionals } = parseStrictArguments(args, {
    help: { type: 'boolean', short: 'h' },
    application: { type: 'string' },
    out: { type: 'string' },
    'reject-unknown-keys': { type: 'boolean' },
  });
  if (values.help) {
    io.out(IMPORT_USAGE);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError('contracts import takes one metadata file or jar');
  const application = values.application;
  if (application === undefined) throw new UsageError('contracts import needs --application NAME');
  const invalid = validateApplicationName(application);
  if (invalid !== undefined) throw new UsageError(`--application: ${invalid}`);
  const source = positionals[0] as string;
  let bytes: Buffer;
  try {
    bytes = await readFile(resolve(io.cwd, source));
  } catch (error) {
    throw new UsageError(`cannot read ${source}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const metadata = isZipArchive(bytes)
    ? springMetadataOfJar(bytes, source)
    : parseSpringMetadata(bytes.toString('utf8'), source);
  const schema = contractOfSpringMetadata(metadata, {
    source,
    rejectUnknownKeys: values['reject-unknown-keys'] === true,
  });
  const text = `${JSON.stringify({ ...schema, title: application, $comment: `imported from ${source}` }, null, 2)}\n`;
  if (values.out === undefined) io.out(text.trimEnd());
  else await writeFile(resolve(io.cwd, values.out), text);
  io.err(
    `confbus contracts import: ${metadata.properties.length} properties of ${source} → ${values.out ?? 'standard output'}`,
  );
  return 0;
}
