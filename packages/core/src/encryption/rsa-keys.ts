/**
 * RSA key handling for Spring's RSA encryptors: reading the PEM `encrypt.key`, the `ssh-rsa` form `GET /key`
 * answers with (Spring's `RsaKeyHelper.encodePublicKey`), and RSA/ECB/PKCS1Padding decryption.
 */
import { type KeyObject, constants, createPrivateKey, createPublicKey, privateDecrypt } from 'node:crypto';
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';

export interface RsaKeyPair {
  readonly publicKey: KeyObject;
  /** Absent for a certificate-only entry: such a key encrypts but cannot decrypt. */
  readonly privateKey?: KeyObject;
}

const PKCS1_BEGIN = '-----BEGIN RSA PRIVATE KEY-----';
const PKCS1_END = '-----END RSA PRIVATE KEY-----';

/**
 * The text between the first BEGIN line and the END after it. Two indexOf calls rather than a lazy regex: the
 * regex retried from every BEGIN of a text full of BEGIN lines and no END, quadratic in the setting's length.
 */
function pkcs1Body(pem: string): string | undefined {
  const begin = pem.indexOf(PKCS1_BEGIN);
  if (begin < 0) return undefined;
  const bodyStart = begin + PKCS1_BEGIN.length;
  const end = pem.indexOf(PKCS1_END, bodyStart);
  return end < 0 ? undefined : pem.slice(bodyStart, end);
}

/**
 * The key pair of a PEM "RSA PRIVATE KEY" (PKCS#1), as Spring's EncryptorFactory takes it from `encrypt.key`.
 * Whitespace inside the body is ignored (Spring only removes `\n` and the spaces after it, so CRLF files fail
 * there; here they work).
 */
export function parseRsaPrivateKeyPem(pem: string): RsaKeyPair {
  const body = pkcs1Body(pem)?.replace(/\s+/g, '');
  const der = body === undefined ? undefined : Buffer.from(body, 'base64');
  try {
    if (der === undefined || der.length === 0) throw new Error('no PEM body');
    const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs1' });
    return { privateKey, publicKey: createPublicKey(privateKey) };
  } catch {
    throw new ConfbusError(
      coreErrors.CONFBUS_ENCRYPT_BAD_KEY,
      'encrypt.key looks like a PEM RSA private key but cannot be read as one (-----BEGIN RSA PRIVATE KEY----- ... -----END RSA PRIVATE KEY-----)',
    );
  }
}

/** `ssh-rsa <base64> <id>`: SSH's wire encoding of (e, n) as Java's BigInteger.toByteArray writes them. */
export function sshRsaPublicKey(publicKey: KeyObject, id = 'application'): string {
  const jwk = publicKey.export({ format: 'jwk' });
  if (jwk.kty !== 'RSA' || jwk.n === undefined || jwk.e === undefined) {
    throw new ConfbusError(coreErrors.CONFBUS_ENCRYPT_BAD_KEY, 'The key is not an RSA key');
  }
  const parts = [Buffer.from('ssh-rsa'), twosComplement(jwk.e), twosComplement(jwk.n)];
  const out = Buffer.concat(
    parts.flatMap((part) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(part.length);
      return [length, part];
    }),
  );
  return `ssh-rsa ${out.toString('base64')} ${id}`;
}

/** A positive integer (base64url, big-endian) as Java's minimal two's-complement bytes. */
function twosComplement(base64url: string): Buffer {
  let bytes = Buffer.from(base64url, 'base64url');
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  bytes = bytes.subarray(start);
  return (bytes[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.alloc(1), bytes]) : bytes;
}

export function modulusBytes(key: KeyObject): number {
  const bits = key.asymmetricKeyDetails?.modulusLength;
  if (bits === undefined)
    throw new ConfbusError(coreErrors.CONFBUS_ENCRYPT_BAD_KEY, 'The key is not an RSA key');
  return Math.ceil(bits / 8);
}

/**
 * RSA/ECB/PKCS1Padding decryption (Java's "RSA"), which Spring's DEFAULT algorithm uses. Written here because
 * Node 20 refuses RSA_PKCS1_PADDING in privateDecrypt (CVE-2023-46809, the Marvin timing attack) unless the
 * process runs with --security-revert. The raw RSA operation is OpenSSL's; the padding check below inspects
 * every byte whatever it finds, and the caller answers every failure with the same error. A padding oracle
 * would only reveal what POST /decrypt answers anyway.
 */
export function rsaDecryptPkcs1(privateKey: KeyObject, block: Uint8Array): Buffer | undefined {
  const size = modulusBytes(privateKey);
  if (block.length === 0 || block.length > size) return undefined;
  // Java accepts a block shorter than the modulus (a smaller integer); OpenSSL wants it left-padded.
  const input = block.length === size ? block : Buffer.concat([Buffer.alloc(size - block.length), block]);
  let em: Buffer;
  try {
    em = privateDecrypt({ key: privateKey, padding: constants.RSA_NO_PADDING }, input);
  } catch {
    return undefined;
  }
  // EM = 00 ‖ 02 ‖ PS (≥ 8 non-zero bytes) ‖ 00 ‖ M
  let bad = (em[0] ?? 1) | ((em[1] ?? 0) ^ 2);
  let separator = 0;
  let found = 0;
  for (let i = 2; i < em.length; i++) {
    const isZero = em[i] === 0 ? 1 : 0;
    separator = isZero & (found ^ 1) ? i : separator;
    found |= isZero;
  }
  // No separator, or fewer than 8 padding bytes before it.
  bad |= (found ^ 1) | (separator < 10 ? 1 : 0);
  return bad === 0 ? em.subarray(separator + 1) : undefined;
}
