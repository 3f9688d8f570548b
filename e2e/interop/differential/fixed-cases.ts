/**
 * Hand-written cases for the differential test, beside the seeded random repositories: what changed in Spring
 * Cloud Config between 5.0.2 and 5.0.6 and what an issue asked about by name (#25). An application of its own,
 * `spring506`, in its own folder (search-paths `{application}`):
 * - placeholders with spaces inside the braces (`${ greeting }`), resolved in `.yml`/`.json` values since 5.0.4
 *   (spring-cloud-config#3235, c8364f7f4) but not in `.properties`, in values, lists and keys;
 * - values that resolve to several lines, and to text with quotes and backslashes: valid YAML and JSON since
 *   5.0.4, where they are resolved before the file is written;
 * - keys that are numbers in a `.properties` file (`10`, `dev.2.x`), whose place Spring keeps;
 * - escaped placeholders (`\${x}`, `\\${x}`), Spring's `$_{` mask, an empty `${}`, defaults with spaces;
 * - requested profiles Spring's rules refuse since 5.0.3 (`dev,,mysql`, `dev, mysql`, `-dev`), a profile list
 *   echoed as one element (`/spring506/dev,mysql` → `["dev,mysql"]`), and `a..b` (which confbus refuses).
 */

export const FIXED_APP = 'spring506';

export const fixedFiles: Readonly<Record<string, string>> = {
  [`${FIXED_APP}/${FIXED_APP}.yml`]: [
    'greeting: hello',
    'spaced: "${ greeting } world"',
    'mixed: "${greeting } and ${ greeting}"',
    'spacedDefault: "${ missing : dflt }"',
    'flag: ${enabled}',
    'enabled: false',
    'port: ${server-port}',
    'server-port: 8080',
    'ratio: ${ratio-value}',
    'ratio-value: 1.5',
    'multi: |',
    '  line one',
    '  line two',
    'copy: ${multi}',
    'inside: "before ${ multi } after"',
    'quoted: \'say "hi" \\now\'',
    'quotedCopy: ${quoted}',
    'escaped: \\${greeting}',
    "escapedTwice: '\\\\${greeting}'",
    'masked: "a$_{b} ${greeting}"',
    'empty: ${}',
    '"${greeting}-key": keyed',
    'list:',
    '  - ${greeting}',
    '  - ${ greeting }',
    '  - 3',
    'nested:',
    '  ref: ${ greeting }-nested',
    '',
  ].join('\n'),
  [`${FIXED_APP}/${FIXED_APP}-dev.properties`]: [
    'dev.spaced=${ greeting }',
    'dev.plain=${greeting}',
    'dev.default=${ missing : dflt }',
    // Keys that are numbers, after others: Spring keeps them where they stand (see "Not yet matched").
    '10=ten',
    'dev.2.x=two',
    '',
  ].join('\n'),
  [`${FIXED_APP}/${FIXED_APP}-mysql.yml`]: 'db:\n  url: jdbc:mysql://${ greeting }:3306\n',
};

/** Profiles compared (environment, v2 and every rendered format) for the fixed application. */
export const fixedProfiles: readonly string[] = ['default', 'dev', 'mysql', 'dev,mysql'];

/**
 * Requests compared for their status (and body, when both answer 200): profiles Spring's rules refuse, sent as
 * they are, on the environment and file endpoints.
 */
export const profileRequests: readonly string[] = [
  `/${FIXED_APP}/dev,,mysql/master`,
  `/${FIXED_APP}/dev,%20mysql/master`,
  `/${FIXED_APP}/-dev/master`,
  `/${FIXED_APP}/dev!/master`,
  `/${FIXED_APP}/a..b/master`,
  `/master/${FIXED_APP}-dev,,mysql.yml`,
  `/master/${FIXED_APP}-dev!.properties`,
];
