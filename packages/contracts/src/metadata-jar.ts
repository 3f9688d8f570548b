/**
 * Spring configuration metadata read out of a jar: the application's own
 * (`META-INF/spring-configuration-metadata.json`, or `BOOT-INF/classes/META-INF/…` in a Boot fat jar).
 * Libraries' metadata inside a fat jar (`BOOT-INF/lib/*.jar`) is not read: they describe every setting the
 * libraries could take, not the ones this application's configuration is about. The jar is unzipped with
 * fflate, in memory, only the entries wanted.
 */
import { ConfbusError } from '@confbus/core';
import { unzipSync } from 'fflate';
import { contractErrors } from './errors.js';
import { type SpringMetadata, mergeSpringMetadata, parseSpringMetadata } from './spring-metadata.js';

const METADATA_ENTRIES = new Set([
  'META-INF/spring-configuration-metadata.json',
  'BOOT-INF/classes/META-INF/spring-configuration-metadata.json',
]);

/** Whether bytes are a zip archive (a jar), by its local file header signature. */
export function isZipArchive(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04
  );
}

export function springMetadataOfJar(bytes: Uint8Array, source: string): SpringMetadata {
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, { filter: (file) => METADATA_ENTRIES.has(file.name) });
  } catch (error) {
    throw new ConfbusError(
      contractErrors.CONFBUS_CONTRACT_METADATA,
      `${source}: not a readable jar: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const found = Object.entries(entries);
  if (found.length === 0)
    throw new ConfbusError(
      contractErrors.CONFBUS_CONTRACT_METADATA,
      `${source}: holds no META-INF/spring-configuration-metadata.json (is spring-boot-configuration-processor on the build path?)`,
    );
  return mergeSpringMetadata(
    found.map(([name, data]) =>
      parseSpringMetadata(Buffer.from(data).toString('utf8'), `${source}!/${name}`),
    ),
  );
}
