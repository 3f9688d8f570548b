#!/usr/bin/env node
// Prints the settings tables of docs/settings.md from the packages' own setting declarations, so the docs cannot drift:
// `node scripts/settings-table.mjs` after `npm run build`. `npm run lint` checks the file is current.
const { serverSettingSpecs, unsupportedSpringServerSettings } = await import('@confbus/server');
const { clientSettingSpecs } = await import('@confbus/client');

function table(specs) {
  const rows = specs.map((s) => {
    const def =
      s.default === undefined || (Array.isArray(s.default) && s.default.length === 0)
        ? ''
        : `\`${Array.isArray(s.default) ? s.default.join(',') : s.default}\``;
    const also = s.aliases?.length ? ` (also \`${s.aliases.join('`, `')}\`)` : '';
    const range = s.min !== undefined || s.max !== undefined ? ` ${s.min ?? ''}..${s.max ?? ''}` : '';
    return `| \`${s.key}\` | ${s.type}${range}${s.secret ? ', secret' : ''} | ${def} | ${s.description.replace(/\|/g, '\\|')}${also} |`;
  });
  return ['| key | type | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

console.log(`## Server (\`confbus server\`)\n\n${table(serverSettingSpecs)}\n`);
console.log(`## Client library and sample client\n\n${table(clientSettingSpecs)}`);

function unsupportedTable(entries) {
  const rows = entries.map((u) => {
    const effect = u.effect === 'refuse' ? 'stops start-up' : 'ignored, with a warning';
    return `| \`${u.key}${u.isPrefix ? '.*' : ''}\` | ${effect} | ${u.reason.replace(/\|/g, '\\|')} |`;
  });
  return ['| Spring key | in confbus | why |', '| --- | --- | --- |', ...rows].join('\n');
}

console.log(
  `\n## Spring settings confbus does not implement\n\nNamed as such at start-up (in any spelling, from any source) rather than as unknown settings. A setting whose silent absence could change security or what is served stops start-up; one that only tunes Spring's own machinery is ignored with a warning.\n\n${unsupportedTable(unsupportedSpringServerSettings)}`,
);
