// A self-signed certificate for 127.0.0.1 made by the openssl CLI, for https test servers.
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { makeTempDir } from './temp-dir.js';

const exec = promisify(execFile);

/** Key and certificate (PEM) for CN/SAN 127.0.0.1, valid for a day, signed by itself (trusted by nobody). */
export async function selfSignedCertificate(): Promise<{ key: string; cert: string }> {
  const temp = await makeTempDir('confbus-tls-');
  try {
    const key = join(temp.path, 'key.pem');
    const cert = join(temp.path, 'cert.pem');
    await exec('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ]);
    return { key: await readFile(key, 'utf8'), cert: await readFile(cert, 'utf8') };
  } finally {
    await temp.remove();
  }
}
