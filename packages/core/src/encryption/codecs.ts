/**
 * The byte/text codecs Spring's encryptors use, with Java's strictness: Node's own decoders are lenient
 * (`Buffer.from(text, 'hex')` stops silently at the first bad character, base64 skips junk, UTF-8 decoding
 * substitutes U+FFFD), which would turn a mangled cipher text into a wrong value instead of an error.
 */

/** Spring Security's `Hex.encode`: lower-case. */
export function encodeHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

const HEX = /^(?:[0-9a-fA-F]{2})*$/;

/** Spring Security's `Hex.decode`: an even number of hex digits (either case), else undefined. */
export function decodeHex(text: string): Buffer | undefined {
  return HEX.test(text) ? Buffer.from(text, 'hex') : undefined;
}

export function isHex(text: string): boolean {
  return HEX.test(text);
}

const BASE64 = /^[A-Za-z0-9+/]*(?:={1,2})?$/;

/**
 * `java.util.Base64.getDecoder()`: the basic alphabet, no whitespace; padding optional, but if present it
 * must complete the last quantum. Undefined when the text is not such base64.
 */
export function decodeBase64(text: string): Buffer | undefined {
  if (!BASE64.test(text)) return undefined;
  const padded = text.endsWith('=');
  if (padded ? text.length % 4 !== 0 : text.length % 4 === 1) return undefined;
  return Buffer.from(text, 'base64');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Spring Security's `Utf8.decode`: malformed input is an error, not replacement characters. */
export function decodeUtf8Strict(bytes: Uint8Array): string | undefined {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return undefined;
  }
}
