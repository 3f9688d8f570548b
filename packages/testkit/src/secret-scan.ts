/**
 * Searching what a process wrote or answered for secrets. A secret is looked for in every form a careless log
 * line, error or body would carry it (as is, percent-encoded, JSON-escaped, base64), and a PEM private key also
 * by its base64 body and by each line of it, so a key logged with escaped newlines, cut or re-wrapped is found.
 */
import assert from 'node:assert/strict';

/** The forms of one secret text to search for. */
export function secretForms(secret: string): string[] {
  return unique([
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
    Buffer.from(secret).toString('base64'),
  ]);
}

/**
 * The forms of a PEM private key: the whole text, its base64 body in one piece, and each line of the body.
 * A line the public key also holds (`publicText`, e.g. the `GET /key` answer) is public by definition and
 * left out: in some encodings the modulus lines up with the public key's own base64.
 */
export function privateKeyForms(pem: string, publicText = ''): string[] {
  const lines = pem
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('-----'));
  return unique([
    ...secretForms(pem.trim()),
    lines.join(''),
    ...lines.filter((line) => line.length >= 16 && !publicText.includes(line)),
  ]);
}

/** The first of `forms` that `text` holds, if any. */
export function findSecret(text: string, forms: readonly string[]): string | undefined {
  return forms.find((form) => form !== '' && text.includes(form));
}

/** Fails naming `where` and the start of the form found (never the whole secret, which the report would show). */
export function assertNoSecrets(where: string, text: string, forms: readonly string[]): void {
  const found = findSecret(text, forms);
  if (found === undefined) return;
  const at = text.indexOf(found);
  assert.fail(
    `${where} holds a secret (${found.slice(0, 6)}…), at: ${text.slice(Math.max(0, at - 200), at)}[here]`,
  );
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
