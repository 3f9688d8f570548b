/**
 * `confbus encrypt [TEXT]` and `confbus decrypt [CIPHER]`: what POST /encrypt and /decrypt do, without a
 * server, with the same `encrypt.*` settings (arguments, ENCRYPT_* variables, the settings file). The text
 * comes from the argument or, better (arguments show in `ps`), from standard input, less one trailing newline.
 * The result goes to standard output; errors and warnings to standard error, never with a secret in them.
 */
import { readFile } from 'node:fs/promises';
import {
  CIPHER_MARKER,
  DEFAULT_SCOPE,
  type SettingSpec,
  SettingsError,
  createEncryptorLocator,
  decryptText,
  encryptText,
  encryptionSettingSpecs,
  readEncryptionSettings,
  resolveSettings,
  settingsFileSpecs,
} from '@confbus/core';
import { canonicalKey, keyStorePath, keyStoreReadError, parseArguments } from '@confbus/core/internal';
import { readSettingsFile } from './settings-file.js';

export const cipherSettingSpecs: readonly SettingSpec[] = [...settingsFileSpecs, ...encryptionSettingSpecs];

export interface CipherCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
  readonly stdin: () => Promise<string>;
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
}

export async function runCipherCommand(
  command: 'encrypt' | 'decrypt',
  args: readonly string[],
  io: CipherCommandIo,
): Promise<number> {
  // The settings file may hold a whole server's or client's settings: only mistyped arguments are errors.
  const known = new Set(
    cipherSettingSpecs.flatMap((spec) => [spec.key, ...(spec.aliases ?? [])].map((key) => canonicalKey(key))),
  );
  const unknown = parseArguments(args).pairs.find(([key]) => !known.has(canonicalKey(key)));
  if (unknown !== undefined) {
    throw new SettingsError(
      `Unknown setting '${unknown[0]}' (from argument) for confbus ${command}: it takes the encrypt.* settings (see confbus help)`,
      unknown[0],
      'argument',
    );
  }
  const settings = resolveSettings(
    cipherSettingSpecs,
    { args, env: io.env, file: readSettingsFile(args, io.env, io.cwd) },
    { unknownKeys: 'keep' },
  );
  // Environment variables that nearly spell a setting (a typo is otherwise ignored), then ignored encrypt.* keys.
  for (const warning of settings.warnings) io.err(`confbus: warning: ${warning}`);
  const encryption = readEncryptionSettings(settings);
  for (const note of encryption.ignored) io.err(`confbus: warning: ${note}`);
  const keyStoreBytes =
    encryption.keyStore === undefined
      ? undefined
      : await readKeyStore(keyStorePath(encryption.keyStore.location, io.cwd));
  const locator = await createEncryptorLocator(encryption, keyStoreBytes);

  const positionals = settings.positionals;
  if (positionals.length > 1) {
    io.err(`confbus ${command}: give one text (quote it), or none to read standard input`);
    return 2;
  }
  const text =
    positionals[0] === undefined || positionals[0] === '-'
      ? withoutNewline(await io.stdin())
      : positionals[0];
  if (command === 'encrypt') {
    io.out(encryptText(locator, DEFAULT_SCOPE, text));
  } else {
    const cipherText = text.startsWith(CIPHER_MARKER) ? text.slice(CIPHER_MARKER.length) : text;
    io.out(decryptText(locator, DEFAULT_SCOPE, cipherText.trim()));
  }
  return 0;
}

function readKeyStore(path: string): Promise<Buffer> {
  return readFile(path).catch((error: NodeJS.ErrnoException) => {
    throw keyStoreReadError(path, error);
  });
}

function withoutNewline(text: string): string {
  return text.replace(/\r?\n$/, '');
}
