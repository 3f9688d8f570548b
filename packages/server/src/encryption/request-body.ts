/**
 * How /encrypt and /decrypt read their bodies. `text/plain` (with any parameters) and bodies without a
 * Content-Type are used as sent. `curl -d TEXT`, the documented way to call these endpoints, posts a form:
 * its body is form-decoded for /encrypt (`+` is a space, `%XX` a byte), and percent-decoded only for
 * /decrypt, where `+` stays `+` (a cipher text never holds a space; Spring turns spaces back into `+` too).
 * Spring instead rebuilds the form from the servlet's parsed parameters (`TEXT` becomes `TEXT=`) and undoes
 * that in `stripFormData`; for ordinary texts both read the same, while Spring mangles a text holding `&` or
 * `==`, a cipher text ending in `==`, and `{key:...}` prefixes (read from the still-encoded body). Those read
 * here as sent.
 */

export interface EncryptionRequestBody {
  /** The body decoded with its charset (UTF-8 unless it names ISO-8859-1). */
  readonly text: string;
  readonly form: boolean;
}

export function readRequestBody(raw: Buffer, contentType: string | undefined): EncryptionRequestBody {
  const [mediaType = '', ...parameters] = (contentType ?? 'text/plain').split(';').map((part) => part.trim());
  const charset = parameters
    .map((parameter) => /^charset\s*=\s*"?([^"]+)"?$/i.exec(parameter)?.[1]?.toLowerCase())
    .find((value) => value !== undefined);
  const latin1 = charset === 'iso-8859-1' || charset === 'latin1';
  return {
    text: raw.toString(latin1 ? 'latin1' : 'utf8'),
    form: mediaType.toLowerCase() === 'application/x-www-form-urlencoded',
  };
}

/** The text to encrypt. */
export function textToEncrypt(body: EncryptionRequestBody): string {
  return body.form ? percentDecode(body.text.replace(/\+/g, ' ')) : body.text;
}

/** The cipher text to decrypt, prefixes included. */
export function textToDecrypt(body: EncryptionRequestBody): string {
  return body.form ? percentDecode(body.text) : body.text;
}

/** `%XX` sequences as UTF-8; a malformed escape leaves the text as it is. */
function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
