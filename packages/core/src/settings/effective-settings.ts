/**
 * The settings a process runs with, as its start-up log line shows them: every declared setting that did not
 * come from a default, with the source it came from, secrets masked (declared secret, or a secret-looking key)
 * and URI passwords cut. Defaults are left out because docs/settings.md lists them and they would drown the
 * rest; so are undeclared keys a client keeps (its application.yml's own properties are configuration, not
 * settings of the client).
 */
import { isSecretKey, maskUriUserInfo, maskValue } from '../secrets.js';
import type { Settings } from './settings-resolver.js';

export function effectiveSettings(settings: Settings): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const [key, value] of settings.entries()) {
    const source = settings.sourceOf(key);
    if (source === 'default' || !settings.isDeclared(key)) continue;
    const text = Array.isArray(value) ? value.join(',') : String(value);
    shown[key] =
      `${settings.isSecret(key) || isSecretKey(key) ? maskValue() : maskUriUserInfo(text)} (${source})`;
  }
  return shown;
}
