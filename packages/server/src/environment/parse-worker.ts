/**
 * Runs in a worker thread of ConfigFileParser: parses one configuration file. A ConfigParseError is returned
 * as data (errors lose their class crossing threads) and rebuilt on the other side.
 */
import { type ConfigDocument, ConfigParseError, parseConfigFile } from '@confbus/core';

export interface ParseTask {
  path: string;
  bytes: Uint8Array;
}

export type ParseResult =
  | { ok: true; documents: ConfigDocument[] }
  | {
      ok: false;
      file: string;
      reason: string;
      details: { document?: number; line?: number; column?: number };
    };

export default function parse(task: ParseTask): ParseResult {
  try {
    return { ok: true, documents: parseConfigFile(task.path, Buffer.from(task.bytes).toString('utf8')) };
  } catch (error) {
    if (!(error instanceof ConfigParseError)) throw error;
    const details: { document?: number; line?: number; column?: number } = {};
    if (error.document !== undefined) details.document = error.document;
    if (error.line !== undefined) details.line = error.line;
    if (error.column !== undefined) details.column = error.column;
    return { ok: false, file: error.file, reason: error.reason, details };
  }
}
