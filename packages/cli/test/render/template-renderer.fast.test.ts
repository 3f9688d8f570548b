/** Templates in Liquid: the configuration as a tree and by key, strict about keys that are not there. */
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ConfigView } from '@confbus/client';
import { makeTempDir, type TempDir } from '@confbus/testkit/temp-dir';
import type { ConfigState } from '../../src/follow/config-feed.js';
import { TemplateError, TemplateRenderer } from '../../src/render/template-renderer.js';

const temps: TempDir[] = [];
async function template(text: string): Promise<string> {
  const temp = await makeTempDir('confbus-template-');
  temps.push(temp);
  const path = join(temp.path, 'app.conf.liquid');
  await writeFile(path, text);
  return path;
}

/** A fixed configuration (a fake of the client's view: the two reads the renderer makes). */
function state(values: Record<string, string>, tree: Record<string, unknown>): ConfigState {
  const view = { get: (key: string) => values[key], bind: () => tree } as unknown as ConfigView;
  return { version: 'abc123', source: 'server', keys: Object.keys(values), view };
}

describe('TemplateRenderer', () => {
  after(() => Promise.all(temps.map((t) => t.remove())));

  const config = state(
    {
      'server.port': '8080',
      'upstream.hosts[0]': 'a:1',
      'upstream.hosts[1]': 'b:2',
      'group.comment': 'x < y',
    },
    { server: { port: 8080 }, upstream: { hosts: ['a:1', 'b:2'] }, group: { comment: 'x < y' } },
  );

  it('renders the tree, the keys as written and the version, without HTML escaping', async () => {
    const renderer = await TemplateRenderer.load(
      await template(
        'listen {{ config.server.port }};\n{% for h in config.upstream.hosts %}server {{ h }};\n{% endfor %}' +
          '# {{ properties["group.comment"] }} @ {{ version }}{% if config.missing %}never{% endif %}' +
          ' {{ config.missing | default: "fallback" }}\n',
      ),
    );
    assert.equal(
      await renderer.render(config),
      'listen 8080;\nserver a:1;\nserver b:2;\n# x < y @ abc123 fallback\n',
    );
  });

  it('fails on a key the configuration lacks, naming it and where, not rendering half', async () => {
    const renderer = await TemplateRenderer.load(await template('ok\n{{ config.server.host }}\n'));
    await assert.rejects(
      renderer.render(config),
      (error) =>
        error instanceof TemplateError &&
        /app\.conf\.liquid: undefined variable: config\.server\.host, line:2, col:4/.test(error.message),
    );
  });

  it('fails at load on a syntax error or an unknown filter', async () => {
    await assert.rejects(
      TemplateRenderer.load(await template('{{ config.x | shout }}')),
      (error) => error instanceof TemplateError && /undefined filter: shout, line:1/.test(error.message),
    );
    await assert.rejects(
      TemplateRenderer.load(await template('{% if %}')),
      (error) => error instanceof TemplateError && /line:1/.test(error.message),
    );
    await assert.rejects(
      TemplateRenderer.load('/nonexistent/confbus/template.liquid'),
      (error) => error instanceof TemplateError && /Cannot read the template .*ENOENT/.test(error.message),
    );
  });
});
