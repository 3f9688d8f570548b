/**
 * How Spring's EncryptionController reads its body, which matters because `curl -d` (the documented way to
 * call it) posts a form: Spring rebuilds a form body from the servlet's parsed parameters (`text` becomes
 * `text=`) and its `stripFormData` undoes that — URL-decoding, dropping the trailing `=`, and for cipher
 * texts telling a base64 padding `=` from the added one by length parity. text/plain bodies are used as sent.
 * Beyond Spring: `text/plain` with parameters (`;charset=utf-8`) counts as plain (Spring's MediaType.equals
 * does not, and form-decodes such a body when it ends in `=`), a body without Content-Type is plain (Spring:
 * 400), and a form-posted cipher text keeps its `{key:...}` prefixes (Spring reads them from the still
 * URL-encoded body, so they never match).
 */
import { decodeBase64, decodeHex, stripPrefixes } from '@confbus/core';

export interface EncryptionRequestBody {
  readonly text: string;
  /** Sent as text/plain (or with no Content-Type): used as is. */
  readonly plain: boolean;
}

export function readRequestBody(raw: Buffer, contentType: string | undefined): EncryptionRequestBody {
  const [mediaType = '', ...parameters] = (contentType ?? 'text/plain').split(';').map((part) => part.trim());
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^"]+)"?$/i.exec(parameter)?.[1]?.toLowerCase())
    .find((value) => value !== undefined);
  const text = raw.toString(charset === 'iso-8859-1' || charset === 'latin1' ? 'latin1' : 'utf8');
  const type = mediaType.toLowerCase();
  if (type === 'text/plain') return { text, plain: true };
  if (type === 'application/x-www-form-urlencoded') return { text: rebuildFormBody(text), plain: false };
  return { text, plain: false };
}

/** The text to encrypt: Spring's `stripFormData(data, type, false)`. */
export function textToEncrypt(body: EncryptionRequestBody): string {
  if (body.plain || !body.text.endsWith('=')) return body.text;
  return javaUrlDecode(body.text).slice(0, -1);
}

/** The cipher text to decrypt, prefixes kept: Spring's `stripFormData(stripPrefix(data), type, true)`. */
export function textToDecrypt(body: EncryptionRequestBody): string {
  if (body.plain || !body.text.endsWith('=')) return body.text;
  const decoded = javaUrlDecode(body.text).replaceAll(' ', '+');
  const cipherText = stripPrefixes(decoded);
  const prefixes = decoded.slice(0, decoded.length - cipherText.length);
  return prefixes + stripAddedEquals(cipherText);
}

function stripAddedEquals(data: string): string {
  const candidate = data.slice(0, -1);
  if (data.endsWith('=') && data.length % 2 === 1) {
    if (decodeHex(candidate) !== undefined || decodeBase64(candidate) !== undefined) return candidate;
  }
  return data;
}

/** Tomcat's parameter parsing followed by Spring's `getBodyFromServletRequestParameters`. */
function rebuildFormBody(body: string): string {
  const parameters = new Map<string, string[]>();
  for (const pair of body.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = javaUrlDecode(eq === -1 ? pair : pair.slice(0, eq));
    const value = eq === -1 ? '' : javaUrlDecode(pair.slice(eq + 1));
    if (name === '') continue;
    parameters.set(name, [...(parameters.get(name) ?? []), value]);
  }
  return [...parameters]
    .flatMap(([name, values]) => values.map((value) => `${javaUrlEncode(name)}=${javaUrlEncode(value)}`))
    .join('&');
}

/** `java.net.URLEncoder.encode(text, UTF_8)`: like encodeURIComponent, but space is `+` and `!'()~` are escaped. */
function javaUrlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/** `java.net.URLDecoder.decode(text, UTF_8)`; malformed escapes are left as they are. */
function javaUrlDecode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
