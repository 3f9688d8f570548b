/** Incoming request headers as Node gives them (lower-cased names), or as a test writes them. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

/** First value of a header, looked up case-insensitively (Spring's `HttpHeaders.getFirst`). */
export function firstHeader(headers: WebhookHeaders, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== wanted) continue;
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}

export function hasText(s: string | undefined): s is string {
  return s !== undefined && s.trim() !== '';
}
