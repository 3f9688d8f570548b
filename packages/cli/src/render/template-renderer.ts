/**
 * The template of `confbus render`, in Liquid (LiquidJS). Why Liquid: strict variables — a template that names
 * a key the configuration lacks fails to render (and the old file stays) instead of writing an empty value into
 * a live nginx.conf; no HTML escaping, right for config files; no code in templates (unlike Eta's JavaScript),
 * so a template cannot reach the process; maintained, typed, and free of dependencies at run time. Handlebars'
 * strict mode and Nunjucks' throwOnUndefined would do the first; Liquid does all of it.
 *
 * What a template sees: `config`, the whole configuration as a tree (`{{ config.server.port }}`,
 * `{% for h in config.upstream.hosts %}`), local settings included as the application would see them;
 * `properties`, the configuration's keys as written (`{{ properties["group.comment"] }}`); `version`, the
 * config server's version. `{% if config.x %}` and `| default:` accept a missing key; output does not.
 */
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ConfbusError, coreErrors } from '@confbus/core';
import { Liquid, type Template } from 'liquidjs';
import type { ConfigState } from '../follow/config-feed.js';

/** A template that cannot be read, parsed or rendered; the message names the file, line and column. */
export class TemplateError extends ConfbusError {
  override readonly name = 'TemplateError';
  constructor(message: string) {
    super(coreErrors.CONFBUS_TEMPLATE, message);
  }
}

export class TemplateRenderer {
  private constructor(
    private readonly path: string,
    private readonly engine: Liquid,
    private readonly template: Template[],
  ) {}

  /** Reads and parses the template; a syntax error or an unknown filter fails here, before anything runs. */
  static async load(path: string): Promise<TemplateRenderer> {
    const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
      throw new TemplateError(`Cannot read the template ${path}: ${error.code ?? error.message}`);
    });
    const engine = new Liquid({
      strictVariables: true,
      strictFilters: true,
      lenientIf: true,
      ownPropertyOnly: true,
      root: [dirname(path)],
    });
    try {
      return new TemplateRenderer(path, engine, engine.parse(text));
    } catch (error) {
      throw new TemplateError(`Template ${path}: ${messageOf(error)}`);
    }
  }

  /** The file's text for this configuration; a TemplateError when the template names a missing key. */
  async render(state: ConfigState): Promise<string> {
    const properties: Record<string, string> = {};
    for (const key of state.keys) {
      const value = state.view.get(key);
      if (value !== undefined) properties[key] = String(value);
    }
    const data = { config: state.view.bind(''), properties, version: state.version };
    try {
      return String(await this.engine.render(this.template, data));
    } catch (error) {
      throw new TemplateError(`Template ${this.path}: ${messageOf(error)}`);
    }
  }
}

/** LiquidJS's message names the variable and position (`undefined variable: config.x, line:2, col:4`), no value. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
