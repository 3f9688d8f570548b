/**
 * `confbus render`'s own options, typed and checked; a missing or bad one is a UsageError naming it (exit 2).
 */
import { resolve } from 'node:path';
import { UsageError } from '../command-line.js';
import { type OptionSpecs, parseDuration } from '../follow/command-options.js';

export const renderOptionSpecs: OptionSpecs = {
  template: { type: 'string', description: 'The Liquid template to render (required)' },
  out: { type: 'string', description: 'The file to write, replaced atomically (required)' },
  exec: {
    type: 'string',
    description:
      'A command (run by /bin/sh -c) after each render that changed the file, e.g. "nginx -s reload"',
  },
  once: { type: 'boolean', description: 'Render once (and run --exec), then exit' },
  debounce: {
    type: 'string',
    description:
      'Wait this long after a change for more before rendering, at most 10 times as long (default 500ms)',
  },
  mode: {
    type: 'string',
    description: "The file's permissions in octal, e.g. 0644 (default: the existing file's, else 0600)",
  },
};

export interface RenderOptions {
  readonly template: string;
  readonly out: string;
  readonly exec: string | undefined;
  readonly once: boolean;
  readonly debounceMs: number;
  readonly mode: number | undefined;
}

export function readRenderOptions(
  options: Readonly<Record<string, string | boolean | undefined>>,
  cwd: string,
): RenderOptions {
  const template = options.template;
  const out = options.out;
  if (typeof template !== 'string') throw new UsageError("confbus render needs '--template=FILE'");
  if (typeof out !== 'string') throw new UsageError("confbus render needs '--out=FILE'");
  const mode = typeof options.mode === 'string' ? parseMode(options.mode) : undefined;
  return {
    template: resolve(cwd, template),
    out: resolve(cwd, out),
    exec: typeof options.exec === 'string' ? options.exec : undefined,
    once: options.once === true,
    debounceMs: parseDuration('debounce', typeof options.debounce === 'string' ? options.debounce : '500ms'),
    mode,
  };
}

function parseMode(value: string): number {
  if (!/^0?[0-7]{3}$/.test(value)) {
    throw new UsageError(`option '--mode' takes octal permissions such as 0644 (got '${value}')`);
  }
  return Number.parseInt(value, 8);
}
