/** What every encryptor offers, after Spring Security's `TextEncryptor` (plus what the endpoints ask of it). */
export interface TextEncryptor {
  /** Cipher text in the encryptor's own encoding (hex for symmetric keys, base64 for RSA). */
  encrypt(text: string): string;
  /** Throws a ConfbusError (`CONFBUS_DECRYPT_FAILED`, `CONFBUS_DECRYPT_NOT_SUPPORTED`) naming no value. */
  decrypt(cipherText: string): string;
  /** False for an RSA public key without its private key: it can encrypt only. */
  readonly canDecrypt: boolean;
  /** The RSA public key in `ssh-rsa` form (`GET /key`); undefined for symmetric keys. */
  publicKey(): string | undefined;
}
