/**
 * The parsed form of one document of a configuration file, and the error every codec throws.
 */
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';
import type { FlatProperties } from './flatten.js';
import {
  type ProfileExpression,
  ProfileExpressionError,
  parseProfileExpression,
} from './profile-expression.js';

export interface ConfigDocument {
  /** 0-based position in the file (empty documents are not counted, as in Boot). */
  index: number;
  /** Documents in the file. */
  count: number;
  /** Flattened (`a.b[0].c`), typed as SnakeYAML would. */
  properties: FlatProperties;
  /** From `spring.config.activate.on-profile` or the legacy `spring.profiles`. */
  activation?: ProfileExpression;
  /**
   * Where each property's value was written, `line:column` (1-based), as Boot's origin tracking records it;
   * served as `origin` in the v2 environment JSON. Absent when the codec does not track it.
   */
  origins?: Readonly<Record<string, string>>;
}

export interface ConfigParseErrorDetails {
  /** 1-based document number, when the error belongs to one document. */
  document?: number;
  line?: number;
  column?: number;
}

/** A configuration file that cannot be loaded; the server answers 500, as Spring does. */
export class ConfigParseError extends ConfbusError<'CONFBUS_CONFIG_PARSE'> {
  override readonly name = 'ConfigParseError';
  readonly document: number | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;
  /** The problem alone, without the location prefix. */
  readonly reason: string;

  constructor(
    readonly file: string,
    reason: string,
    details: ConfigParseErrorDetails = {},
  ) {
    const where = [
      details.document === undefined ? undefined : `document ${details.document}`,
      details.line === undefined ? undefined : `line ${details.line}`,
      details.column === undefined ? undefined : `column ${details.column}`,
    ].filter((part) => part !== undefined);
    super(
      coreErrors.CONFBUS_CONFIG_PARSE,
      `${file}: ${where.length > 0 ? `${where.join(', ')}: ` : ''}${reason}`,
    );
    this.reason = reason;
    this.document = details.document;
    this.line = details.line;
    this.column = details.column;
  }
}

const ON_PROFILE = 'spring.config.activate.on-profile';
const LEGACY_PROFILES = 'spring.profiles';

/**
 * Most segments (`a.b[0].c` has four) in one property name. Real names have a handful; thousands made the
 * `.yml`/`.json` renderers, which nest one level per segment, overflow the stack.
 */
export const MAX_KEY_SEGMENTS = 128;

/** Builds the documents of one file, reading each document's profile activation. */
export function toConfigDocuments(
  file: string,
  documents: readonly FlatProperties[],
  origins: readonly Readonly<Record<string, string>>[] = [],
): ConfigDocument[] {
  return documents.map((properties, index) => {
    checkKeyDepth(file, properties, index + 1);
    const document: ConfigDocument = { index, count: documents.length, properties };
    const documentOrigins = origins[index];
    if (documentOrigins !== undefined) document.origins = documentOrigins;
    const activation = readActivation(file, properties, index + 1);
    if (activation !== undefined) document.activation = activation;
    return document;
  });
}

function checkKeyDepth(file: string, properties: FlatProperties, documentNumber: number): void {
  for (const key of properties.keys()) {
    let segments = 1;
    for (let i = 0; i < key.length; i++) if (key[i] === '.' || key[i] === '[') segments++;
    if (segments > MAX_KEY_SEGMENTS) {
      throw new ConfigParseError(
        file,
        `property name '${key.slice(0, 60)}…' has ${segments} segments, more than ${MAX_KEY_SEGMENTS}`,
        { document: documentNumber },
      );
    }
  }
}

function readActivation(
  file: string,
  properties: FlatProperties,
  documentNumber: number,
): ProfileExpression | undefined {
  const onProfile = listValue(properties, ON_PROFILE);
  const legacy = listValue(properties, LEGACY_PROFILES);
  if (onProfile !== undefined && legacy !== undefined) {
    throw new ConfigParseError(
      file,
      `both '${ON_PROFILE}' and '${LEGACY_PROFILES}' are set; use only '${ON_PROFILE}'`,
      { document: documentNumber },
    );
  }
  const raw = onProfile ?? legacy;
  if (raw === undefined) return undefined;
  try {
    return parseProfileExpression(raw);
  } catch (error) {
    if (error instanceof ProfileExpressionError) {
      throw new ConfigParseError(file, error.message, { document: documentNumber });
    }
    throw error;
  }
}

/** A scalar (`key: a,b`) or a list (`key[0]`, `key[1]`), as Boot binds a String[]. */
function listValue(properties: FlatProperties, key: string): string[] | undefined {
  if (properties.has(key)) return [String(properties.get(key))];
  const items: string[] = [];
  for (let i = 0; properties.has(`${key}[${i}]`); i++) items.push(String(properties.get(`${key}[${i}]`)));
  return items.length > 0 ? items : undefined;
}
