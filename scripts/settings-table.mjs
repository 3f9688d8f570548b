#!/usr/bin/env node
// Prints the settings tables of docs/settings.md from the packages' own setting declarations, so the docs cannot drift:
// `node scripts/settings-table.mjs` after `npm run build`. `npm run lint` checks the file is current.
const { serverSettingSpecs } = await import('@confbus/server');
const { clientSettingSpecs } = await import('@confbus/client');

function table(specs) {
  const rows = specs.map((s) => {
    const def =
      s.default === undefined || (Array.isArray(s.default) && s.default.length === 0)
        ? ''
        : `\`${Array.isArray(s.default) ? s.default.join(',') : s.default}\``;
    const also = s.aliases?.length ? ` (also \`${s.aliases.join('`, `')}\`)` : '';
    return `| \`${s.key}\` | ${s.type}${s.secret ? ', secret' : ''} | ${def} | ${s.description.replace(/\|/g, '\\|')}${also} |`;
  });
  return ['| key | type | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}

console.log(`## Server (\`confbus server\`)\n\n${table(serverSettingSpecs)}\n`);
console.log(`## Client library and sample client\n\n${table(clientSettingSpecs)}`);
