/**
 * The documents an environment is built from: the files a request reads at a commit (Spring's candidates in the
 * search directories, then what their `spring.config.import` names), parsed through the shared cache, with their
 * estimated weight in memory; refused past confbus.server.max-environment-bytes before a byte more is parsed.
 */
import { ConfbusError, candidateConfigFiles, coreErrors } from '@confbus/core';
import { type FileDocument, loadWithImports } from '@confbus/core/internal';
import type { TimeSlice } from '../support/time-slice.js';
import type { ParsedFile } from './environment-caches.js';
import type { EnvironmentRequest } from './environment-request.js';
import type { ParsedFiles } from './parsed-files.js';

export interface DocumentSource {
  readonly files: ParsedFiles;
  /** confbus.server.max-environment-bytes: the largest summed size of one environment's files. */
  readonly maxEnvironmentBytes: number;
}

/** What is read: the request, at a commit, in these directories, among the files present there. */
export interface DocumentsWanted {
  readonly request: EnvironmentRequest;
  readonly commit: string;
  readonly directories: readonly string[];
  readonly present: ReadonlySet<string>;
}

export async function loadDocuments(
  source: DocumentSource,
  wanted: DocumentsWanted,
  slice: TimeSlice,
): Promise<{ documents: FileDocument[]; objectBytes: number }> {
  const { files, maxEnvironmentBytes } = source;
  const { request, commit, directories, present } = wanted;
  const ids = await files.blobIds(commit);
  const tree = {
    applications: request.applications,
    profiles: request.profiles,
    directories: [...directories],
  };
  // The files the search directories hold are read and parsed at once, in parallel; imported ones as the
  // import tree asks for them (it needs a file's documents to know what it imports).
  const reading = new Map<string, Promise<ParsedFile>>();
  const read = (path: string): Promise<ParsedFile> => {
    let file = reading.get(path);
    if (!file) {
      file = files.read(commit, path, ids?.get(path));
      reading.set(path, file);
    }
    return file;
  };
  for (const candidate of candidateConfigFiles(tree)) {
    if (present.has(candidate.path)) read(candidate.path).catch(() => undefined);
  }
  let sourceBytes = 0;
  let objectBytes = 0;
  const documents = await loadWithImports(
    tree,
    (path) => present.has(path),
    async (path) => {
      const file = await read(path);
      sourceBytes += file.bytes;
      if (sourceBytes > maxEnvironmentBytes) {
        throw new ConfbusError(
          coreErrors.CONFBUS_CONFIG_LIMIT,
          `${path}: the files of '${request.name}' (${request.profilesText}) add up to more than ` +
            `confbus.server.max-environment-bytes (${maxEnvironmentBytes}) with this one`,
        );
      }
      objectBytes += file.weight;
      return file.documents;
    },
    (work) => slice.run(work),
  );
  return { documents, objectBytes };
}
