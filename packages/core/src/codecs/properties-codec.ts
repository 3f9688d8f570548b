/**
 * `.properties` files with Java's exact syntax (via `properties-file`), split into documents
 * on `#---` / `!---` lines as Spring Boot 2.4+ does. Values are always strings.
 *
 * Encoding: Boot reads `.properties` bytes as ISO-8859-1 (plus `\uXXXX` escapes). confbus
 * receives the file as a JS string that the server decoded as UTF-8, so non-ASCII text written
 * in UTF-8 arrives as intended here, whereas Boot would show it as mojibake. ASCII files and
 * `\u` escapes behave identically; a Latin-1 byte that is not valid UTF-8 becomes U+FFFD.
 */
import { Properties } from 'properties-file/parser';
import { ConfigParseError, type ConfigDocument, toConfigDocuments } from './config-document.js';
import { type FlatProperties, type MutableFlatProperties, setOwnProperty } from './flatten.js';
import { messageOf } from '../errors/message-of.js';

interface Chunk {
  /** 0-based line where the chunk starts in the file. */
  firstLine: number;
  text: string;
}

export function parseProperties(text: string, file: string): ConfigDocument[] {
  const documents: FlatProperties[] = [];
  const origins: Record<string, string>[] = [];
  const chunks = splitDocuments(text);
  chunks.forEach((chunk, position) => {
    const parsed = parseChunk(chunk, file, chunks.length > 1 ? position + 1 : 1);
    // Boot drops documents without properties and numbers only the remaining ones.
    if (parsed.properties.size > 0) {
      documents.push(parsed.properties);
      origins.push(parsed.origins);
    }
  });
  return toConfigDocuments(file, documents, origins);
}

function parseChunk(
  chunk: Chunk,
  file: string,
  documentNumber: number,
): { properties: MutableFlatProperties; origins: Record<string, string> } {
  let parsed: Properties;
  try {
    parsed = new Properties(chunk.text);
  } catch (cause) {
    const reason = messageOf(cause);
    const line = findMalformedEscapeLine(chunk.text);
    throw new ConfigParseError(file, reason, {
      document: documentNumber,
      ...(line === undefined ? {} : { line: chunk.firstLine + line + 1 }),
    });
  }
  const properties: MutableFlatProperties = new Map();
  const origins: Record<string, string> = {};
  // Like Boot's LinkedHashMap: a repeated key keeps its first position and takes the last value.
  for (const node of parsed.getProperties()) {
    properties.set(node.key, node.value);
    // Boot's origin: where the value starts (after the key, separator and the blanks around it).
    const column =
      node.leadingWhitespace.length +
      node.escapedKey.length +
      node.separatorLeading.length +
      (node.separatorChar === undefined ? 0 : 1) +
      node.separatorTrailing.length +
      1;
    setOwnProperty(origins, node.key, `${chunk.firstLine + node.startingLineNumber}:${column}`);
  }
  return { properties, origins };
}

const LINE = /[^\r\n]*(?:\r\n|\r|\n|$)/g;

/**
 * Splits on separator lines the way Boot's OriginTrackedPropertiesLoader does: `#---` or
 * `!---` at column 0, optionally followed by whitespace, not inside a continued value, and not
 * directly after a comment line that starts with the same character.
 */
function splitDocuments(text: string): Chunk[] {
  const lines = (text.match(LINE) ?? []).filter((line, i, all) => line !== '' || i < all.length - 1);
  const chunks: Chunk[] = [];
  let current: string[] = [];
  let firstLine = 0;
  let continued = false;
  let previousCommentPrefix: string | undefined;
  lines.forEach((raw, index) => {
    const content = raw.replace(/\r\n|\r|\n$/, '');
    if (!continued && /^[#!]---[ \t\f]*$/.test(content) && previousCommentPrefix !== content[0]) {
      chunks.push({ firstLine, text: current.join('') });
      current = [];
      firstLine = index + 1;
      previousCommentPrefix = undefined;
      return;
    }
    current.push(raw);
    const trimmed = content.replace(/^[ \t\f]+/, '');
    const isComment = !continued && (trimmed.startsWith('#') || trimmed.startsWith('!'));
    previousCommentPrefix = isComment ? trimmed[0] : undefined;
    // A logical line continues when it ends with an odd number of backslashes (never a comment).
    continued = !isComment && trimmed !== '' && /(?:^|[^\\])(?:\\\\)*\\$/.test(content);
  });
  chunks.push({ firstLine, text: current.join('') });
  return chunks;
}

function findMalformedEscapeLine(text: string): number | undefined {
  const lines = text.split(/\r\n|\r|\n/);
  const index = lines.findIndex((line) => /(?:^|[^\\])(?:\\\\)*\\u(?![0-9a-fA-F]{4})/.test(line));
  return index === -1 ? undefined : index;
}
