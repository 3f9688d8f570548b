/**
 * A configuration key as the environment variable Spring Boot binds back to it, by the rule of Boot's
 * SystemEnvironmentPropertyMapper: the key's elements (split at dots, `[i]` an element of its own) joined by
 * `_`; a plain element in its uniform form (lower case, letters and digits only: dashes and underscores
 * dropped), an indexed element as written; all upper case. `group.comment` → `GROUP_COMMENT`,
 * `my-app.first-name` → `MYAPP_FIRSTNAME`, `features[0]` → `FEATURES_0`, `servers[0].host` → `SERVERS_0_HOST`.
 * Boot reads such a name back by splitting at `_`, lower-casing, and taking digits as an index.
 *
 * Written here rather than with core's environmentNamesFor: that one lists the names a *setting* is looked up
 * under (the legacy dashed form too), and it joins an index followed by a dot with two underscores; a child's
 * environment needs exactly the one name Boot maps first.
 */

/** The variable name, or undefined when the key has a part no variable name can hold (`map[a.b]`, `x[a b]`). */
export function springEnvironmentName(key: string): string | undefined {
  const parts: string[] = [];
  for (const element of keyElements(key)) {
    const part = element.indexed ? element.text.toUpperCase() : uniform(element.text).toUpperCase();
    // An element with nothing left (`a.-.b`) or characters a variable cannot have (`map[k.x]`) cannot map.
    if (part === '' || !/^[A-Z0-9_]+$/.test(part)) return undefined;
    parts.push(part);
  }
  return parts.length === 0 ? undefined : parts.join('_');
}

/** Boot's uniform form of a plain element: lower case, letters and digits only. */
function uniform(element: string): string {
  return element.toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface KeyElement {
  readonly text: string;
  readonly indexed: boolean;
}

/** `a.b[0].c` → a, b, [0], c; an unclosed `[` makes the rest of the key one plain element. */
function keyElements(key: string): KeyElement[] {
  const elements: KeyElement[] = [];
  let plain = '';
  const endPlain = () => {
    if (plain !== '') elements.push({ text: plain, indexed: false });
    plain = '';
  };
  for (let i = 0; i < key.length; i++) {
    const ch = key[i]!;
    if (ch === '.') endPlain();
    else if (ch === '[' && key.indexOf(']', i) !== -1) {
      endPlain();
      const close = key.indexOf(']', i);
      elements.push({ text: key.slice(i + 1, close), indexed: true });
      i = close;
    } else plain += ch;
  }
  endPlain();
  return elements;
}
