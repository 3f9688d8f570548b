/**
 * The entries of a PKCS12 store as TLS needs them: each private key with its certificate chain (leaf first) under
 * its alias, and the certificates stored alone (a trust store's). Read with node-forge (the PKCS12 parser jks-js
 * uses: MAC checked with the password, PBES2/AES and the legacy PBE schemes); jks-js's own PKCS12-to-PEM step is
 * not used because it keeps one certificate per alias and fails on chain certificates without a friendly name,
 * which openssl and keytool both write.
 */
import { X509Certificate, createPrivateKey } from 'node:crypto';

export interface StoreKeyEntry {
  readonly alias: string;
  /** PEM, PKCS8, unencrypted. */
  readonly key: string;
  /** PEM certificates, leaf first. */
  readonly chain: readonly string[];
}

export interface StoreContents {
  readonly keys: readonly StoreKeyEntry[];
  /** Certificates not bound to a key (trusted certificate entries, or a chain's CAs). */
  readonly certificates: readonly string[];
}

/**
 * node-forge ships no types (@types/node-forge is not a dependency): the little used here is declared below, and
 * the module is imported by a name in a variable so that TypeScript does not look for its declarations.
 */
const NODE_FORGE = 'node-forge';
interface ForgeBag {
  readonly attributes: { readonly friendlyName?: readonly string[]; readonly localKeyId?: readonly string[] };
  readonly key?: unknown;
  readonly cert?: unknown;
  readonly asn1?: unknown;
}
interface Forge {
  readonly asn1: { fromDer(bytes: string): unknown; toDer(asn1: unknown): { getBytes(): string } };
  readonly pkcs12: {
    pkcs12FromAsn1(
      asn1: unknown,
      password: string,
    ): { getBags(filter: { bagType: string }): Record<string, ForgeBag[] | undefined> };
  };
  readonly pki: {
    readonly oids: Record<string, string>;
    privateKeyToAsn1(key: unknown): unknown;
    wrapRsaPrivateKey(asn1: unknown): unknown;
    certificateToAsn1(cert: unknown): unknown;
  };
}

export async function readPkcs12(bytes: Buffer, password: string): Promise<StoreContents> {
  const forge = ((await import(NODE_FORGE)) as { default: Forge }).default;
  const der = (asn1: unknown) => Buffer.from(forge.asn1.toDer(asn1).getBytes(), 'binary');
  const p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(bytes.toString('binary')), password);
  const bagsOf = (oid: string) => p12.getBags({ bagType: oid })[oid] ?? [];
  const { oids } = forge.pki;
  const certificates = bagsOf(oids.certBag!).map((bag) => ({
    localKeyId: bag.attributes.localKeyId?.[0],
    x509: new X509Certificate(der(bag.cert ? forge.pki.certificateToAsn1(bag.cert) : bag.asn1)),
  }));
  const keyBags = [...bagsOf(oids.pkcs8ShroudedKeyBag!), ...bagsOf(oids.keyBag!)];
  const bound = new Set<X509Certificate>();
  const keys = keyBags.map((bag, index): StoreKeyEntry => {
    const info = bag.key ? forge.pki.wrapRsaPrivateKey(forge.pki.privateKeyToAsn1(bag.key)) : bag.asn1;
    const key = createPrivateKey({ key: der(info), format: 'der', type: 'pkcs8' });
    const localKeyId = bag.attributes.localKeyId?.[0];
    const leaf = certificates.find((cert) => localKeyId !== undefined && cert.localKeyId === localKeyId);
    const chain =
      leaf === undefined
        ? []
        : chainOf(
            leaf.x509,
            certificates.map((cert) => cert.x509),
          );
    for (const cert of chain) bound.add(cert);
    return {
      alias: bag.attributes.friendlyName?.[0] ?? `key-${index + 1}`,
      key: key.export({ type: 'pkcs8', format: 'pem' }).toString(),
      chain: chain.map((cert) => cert.toString()),
    };
  });
  return {
    keys,
    certificates: certificates
      .filter((cert) => cert.localKeyId === undefined && !bound.has(cert.x509))
      .map((cert) => cert.x509.toString()),
  };
}

/** The leaf, then each issuer found among `all`, up to a self-signed one (or the last found). */
function chainOf(leaf: X509Certificate, all: readonly X509Certificate[]): X509Certificate[] {
  const chain = [leaf];
  for (let current = leaf; chain.length <= all.length;) {
    if (current.checkIssued(current)) break;
    const issuer = all.find((candidate) => !chain.includes(candidate) && current.checkIssued(candidate));
    if (issuer === undefined) break;
    chain.push(issuer);
    current = issuer;
  }
  return chain;
}
