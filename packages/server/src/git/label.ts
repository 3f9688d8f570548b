// Label validation. Labels come straight from request URLs, so they are checked against git's
// check-ref-format rules (plus our own limits) before they are ever used; see also `--end-of-options`
// at every call site, the second line of defence against option injection. The one place labels are checked:
// the environment route calls requireValidLabel before any repository work, the mirror for labels from
// elsewhere (console, webhook, settings); both answer the same CONFBUS_INVALID_LABEL.
import { InvalidLabelError } from './errors.js';

const MAX_LABEL_LENGTH = 255;

/** Returns a message saying what is wrong with `label`, or undefined when it is acceptable. */
export function validateLabel(label: string): string | undefined {
  if (label.length === 0) return 'label is empty';
  if (label.length > MAX_LABEL_LENGTH) return `label is longer than ${MAX_LABEL_LENGTH} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(label)) return 'label contains control characters';
  if (label.startsWith('-')) return 'label must not start with "-"';
  if (/[ ~^:?*[\\]/.test(label)) return 'label contains one of the characters space ~ ^ : ? * [ \\';
  if (label.includes('..')) return 'label must not contain ".."';
  if (label.includes('@{')) return 'label must not contain "@{"';
  if (label === '@') return 'label must not be "@"';
  if (label.startsWith('/') || label.endsWith('/')) return 'label must not start or end with "/"';
  if (label.includes('//')) return 'label must not contain "//"';
  if (label.endsWith('.')) return 'label must not end with "."';
  for (const part of label.split('/')) {
    if (part.startsWith('.')) return 'no component of the label may start with "."';
    if (part.endsWith('.lock')) return 'no component of the label may end with ".lock"';
  }
  return undefined;
}

/** Throws InvalidLabelError (400 CONFBUS_INVALID_LABEL, the message saying what is wrong) for a bad label. */
export function requireValidLabel(label: string): void {
  const problem = validateLabel(label);
  if (problem !== undefined) throw new InvalidLabelError(problem);
}
