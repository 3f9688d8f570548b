// Which way the upstream is reached besides git's own: the HTTP proxy git is told to use (Spring's proxy.http /
// proxy.https and non-proxy-hosts), and whether the smart-HTTP refs reader may list refs in git's place (only where
// git would reach the same server the same way). Pure choices from settings and the environment, apart from
// upstream.ts, which runs the operations.
import { readFileSync } from 'node:fs';
import { SmartHttpRefs, smartHttpRefsUrl } from './git-http-refs.js';

export interface ProxySettings {
  host?: string;
  port?: number;
  username?: string;
  password?: string;
  /** Hosts reached directly, Java style: `*.internal|localhost`. */
  nonProxyHosts?: string;
}

/** Proxies git takes from the environment (git-process.ts passes them on), which Node would not use. */
const GIT_PROXY_ENV = ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy'];

/**
 * The smart-HTTP refs reader for an http(s) uri, trusting what git trusts (GIT_SSL_CAINFO's file when set, as
 * git passes it on), unless git would reach the server differently: through a proxy, configured or from the
 * environment, or with a CA file Node cannot read.
 */
export function smartHttpFor(
  uri: string,
  options: {
    safeUri: string;
    authorization: string | undefined;
    skipSslValidation: boolean;
    viaProxy: boolean;
  },
): SmartHttpRefs | undefined {
  const url = smartHttpRefsUrl(uri);
  if (url === undefined || options.viaProxy) return undefined;
  if (GIT_PROXY_ENV.some((name) => (process.env[name] ?? '') !== '')) return undefined;
  const caFile = process.env.GIT_SSL_CAINFO ?? '';
  let ca: Buffer | undefined;
  if (url.protocol === 'https:' && caFile !== '') {
    try {
      ca = readFileSync(caFile);
    } catch {
      return undefined;
    }
  }
  return new SmartHttpRefs(url, { ...options, ca });
}

/**
 * The proxy URL git should use for `uri`, as Spring picks it: proxy.https for https:// uris, proxy.http for
 * http:// ones (other transports do not go through an HTTP proxy here), unless the host is a non-proxy host.
 */
export function proxyFor(
  uri: string,
  proxies: { http?: ProxySettings; https?: ProxySettings } | undefined,
): string | undefined {
  const scheme = /^(https?):\/\//i.exec(uri)?.[1]?.toLowerCase();
  const proxy = scheme === 'https' ? proxies?.https : scheme === 'http' ? proxies?.http : undefined;
  if (proxy?.host === undefined) return undefined;
  const host = new URL(uri).hostname;
  const bypass = (proxy.nonProxyHosts ?? '')
    .split('|')
    .map((p) => p.trim())
    .filter((p) => p !== '')
    .some((pattern) =>
      new RegExp(`^${pattern.replace(/[.+?^${}()[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 'i').test(host),
    );
  if (bypass) return undefined;
  const userinfo =
    proxy.username === undefined
      ? ''
      : `${encodeURIComponent(proxy.username)}${proxy.password === undefined ? '' : `:${encodeURIComponent(proxy.password)}`}@`;
  return `http://${userinfo}${proxy.host}:${proxy.port ?? 80}`;
}
