/**
 * The names the server answers console actions under, against DNS rebinding: a page on evil.example whose name
 * the attacker re-points at this server's address is same-origin with itself, so its browser sends
 * `Host: evil.example` (and a matching Origin, and `Sec-Fetch-Site: same-origin`) and could read the CSRF token
 * and act. Only the Host header tells such a request apart. Allowed by default: loopback names (`localhost`,
 * `*.localhost`, which browsers never resolve elsewhere), any IP literal (a page at an IP is served by whoever
 * has that IP: rebinding needs a name), and server.address when it is a name; public names come from
 * confbus.console.allowed-hosts (`config.example.com`, `.example.com` for a domain and its subdomains, `*` for
 * any name).
 */
import { isIP } from 'node:net';

export class AllowedHosts {
  private readonly names = new Set<string>();
  private readonly domains: string[] = [];
  private readonly any: boolean;

  constructor(configured: readonly string[], serverAddress: string) {
    const entries = [...configured, serverAddress].map((entry) => entry.trim().toLowerCase());
    this.any = entries.includes('*');
    for (const entry of entries) {
      if (entry.startsWith('.')) this.domains.push(entry);
      else if (entry !== '' && entry !== '*') this.names.add(entry);
    }
  }

  /** Whether a request's `Host` header (`name[:port]`, `[v6][:port]`) names this server. */
  allows(hostHeader: string | undefined): boolean {
    const name = hostnameOf(hostHeader);
    if (name === undefined) return false;
    if (this.any || isIP(name) !== 0 || name === 'localhost' || name.endsWith('.localhost')) return true;
    return (
      this.names.has(name) || this.domains.some((domain) => name.endsWith(domain) || `.${name}` === domain)
    );
  }
}

/** `name[:port]` or `[v6][:port]`, nothing else (no user info, path or spaces). */
const HOST_HEADER = /^(?:\[([0-9a-f:.]+)\]|([^@/\\?#\s:[\]]+))(?::\d{1,5})?$/i;

/** The lower-cased name of a Host header without port, brackets or a final dot; undefined when malformed. */
export function hostnameOf(hostHeader: string | undefined): string | undefined {
  const match = hostHeader === undefined ? null : HOST_HEADER.exec(hostHeader);
  const name = (match?.[1] ?? match?.[2] ?? '').toLowerCase().replace(/\.$/, '');
  return name === '' ? undefined : name;
}
