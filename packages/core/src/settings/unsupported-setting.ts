/**
 * A Spring key confbus knows of but does not implement. Ignoring some would surprise a user in a way that
 * matters (credentials or a host check silently unused, a different backend expected): those stop start-up.
 * Others only tune Spring's own machinery: those are ignored with a warning.
 */
export interface UnsupportedSetting {
  /** Spring's key; with `isPrefix`, every key below it (`spring.cloud.config.server.vault`). */
  readonly key: string;
  readonly isPrefix?: boolean;
  readonly effect: 'refuse' | 'warn';
  /** Why, and what to do instead: one sentence, shown to the user. */
  readonly reason: string;
}

export function unsupportedSettingMessage(key: string, source: string, entry: UnsupportedSetting): string {
  const verdict = entry.effect === 'refuse' ? 'refusing to start without it' : 'ignored';
  return `'${key}' (from ${source}) is a Spring setting that confbus does not implement (${verdict}): ${entry.reason}`;
}
