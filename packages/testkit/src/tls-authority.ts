/**
 * A private certificate authority for TLS tests, made with the openssl CLI in a folder the test owns: a CA, the
 * server and client certificates it signs (PEM files), and the same as PKCS12 (openssl) or JKS (the JDK's
 * keytool) stores, as users would have them.
 */
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

export interface IssuedCertificate {
  /** PEM private key (unencrypted) and certificate paths. */
  readonly key: string;
  readonly cert: string;
  /** SHA-256 fingerprint of the certificate, as X509Certificate.fingerprint256 shows it. */
  readonly fingerprint: string;
}

export class TlsAuthority {
  private constructor(
    readonly dir: string,
    /** The CA's certificate (PEM path): the trust anchor tests hand to clients and servers. */
    readonly caCert: string,
    private readonly caKey: string,
  ) {}

  /** A new CA named `name` in `dir`. */
  static async create(dir: string, name = 'confbus test CA'): Promise<TlsAuthority> {
    const slug = name.replace(/\W+/g, '-');
    const caKey = join(dir, `${slug}.key`);
    const caCert = join(dir, `${slug}.crt`);
    await exec('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      caKey,
      '-out',
      caCert,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    return new TlsAuthority(dir, caCert, caKey);
  }

  /**
   * A certificate for `name` signed by this CA: for a server (SAN 127.0.0.1 and localhost) or a client.
   * `file` names the files (default `name`); issuing again under the same file replaces them (a renewal).
   */
  async issue(
    name: string,
    options: { client?: boolean; file?: string; sans?: readonly string[] } = {},
  ): Promise<IssuedCertificate> {
    const base = join(this.dir, options.file ?? name.replace(/\W+/g, '-'));
    const key = `${base}.key`;
    const cert = `${base}.crt`;
    const csr = `${base}.csr`;
    const ext = `${base}.ext`;
    const sans = options.sans ?? ['IP:127.0.0.1', 'DNS:localhost'];
    await writeFile(
      ext,
      options.client
        ? 'extendedKeyUsage=clientAuth\n'
        : `extendedKeyUsage=serverAuth\nsubjectAltName=${sans.join(',')}\n`,
    );
    await exec('openssl', [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      key,
      '-out',
      csr,
    ]);
    await exec('openssl', [
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      this.caCert,
      '-CAkey',
      this.caKey,
      '-set_serial',
      String(Date.now()),
      '-days',
      '2',
      '-extfile',
      ext,
      '-out',
      cert,
    ]);
    return { key, cert, fingerprint: new X509Certificate(await readFile(cert)).fingerprint256 };
  }

  /** The certificate and key as a PKCS12 store (alias = friendly name), with the CA in its chain. */
  async pkcs12(
    issued: IssuedCertificate,
    file: string,
    password: string,
    alias = 'confbus',
  ): Promise<string> {
    const path = join(this.dir, file);
    await exec('openssl', [
      'pkcs12',
      '-export',
      '-in',
      issued.cert,
      '-inkey',
      issued.key,
      '-certfile',
      this.caCert,
      '-name',
      alias,
      '-out',
      path,
      '-passout',
      `pass:${password}`,
    ]);
    return path;
  }

  /** The same as a JKS store made by keytool from the PKCS12 one (keytool must be on PATH). */
  async jks(issued: IssuedCertificate, file: string, password: string, alias = 'confbus'): Promise<string> {
    const p12 = await this.pkcs12(issued, `${file}.p12`, password, alias);
    const path = join(this.dir, file);
    await exec('keytool', [
      '-importkeystore',
      '-srckeystore',
      p12,
      '-srcstoretype',
      'PKCS12',
      '-srcstorepass',
      password,
      '-destkeystore',
      path,
      '-deststoretype',
      'JKS',
      '-deststorepass',
      password,
      '-noprompt',
    ]);
    return path;
  }

  /** A trust store holding only the CA's certificate (PKCS12 made by keytool, as Java users make them). */
  async trustStore(file: string, password: string, type: 'PKCS12' | 'JKS' = 'PKCS12'): Promise<string> {
    const path = join(this.dir, file);
    await exec('keytool', [
      '-importcert',
      '-alias',
      'ca',
      '-file',
      this.caCert,
      '-keystore',
      path,
      '-storetype',
      type,
      '-storepass',
      password,
      '-noprompt',
    ]);
    return path;
  }
}
