/**
 * `confbus render --template=T --out=F [--exec=CMD] [--key=value ...]`: fetches the configuration with the config
 * client, renders T into F atomically, runs CMD, and does it again on each change (bus, poll; a watch stream
 * later), debounced. A render that fails (a key the template names is gone) keeps the old file and runs
 * nothing; so does a configuration the client refused (fetch, parse, decrypt). An unchanged result is not
 * written and runs nothing. No value is ever logged.
 */
import { clientSettingSpecs } from '@confbus/client';
import type { Logger } from '@confbus/core';
import { readFile } from 'node:fs/promises';
import { ClientConfigFeed } from '../follow/client-config-feed.js';
import { parseSettingArgs, splitCommandLine } from '../follow/command-options.js';
import type { ConfigState } from '../follow/config-feed.js';
import { Debouncer } from '../follow/debouncer.js';
import { writeFileAtomically } from './atomic-file.js';
import { runExecHook } from './exec-hook.js';
import { type RenderOptions, readRenderOptions, renderOptionSpecs } from './render-options.js';
import { TemplateRenderer } from './template-renderer.js';

export interface RenderCommandIo {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwd: string;
}

const MAX_WAIT_FACTOR = 10;

export async function runRenderCommand(args: readonly string[], io: RenderCommandIo): Promise<number> {
  const split = splitCommandLine(args, renderOptionSpecs);
  const line = parseSettingArgs('render', split.rest, clientSettingSpecs, renderOptionSpecs);
  const options = readRenderOptions(split.options, io.cwd);
  // A template that does not parse fails before anything is fetched.
  const renderer = await TemplateRenderer.load(options.template);
  const feed = await ClientConfigFeed.start({
    args: line.settingArgs,
    env: io.env,
    cwd: io.cwd,
    name: 'confbus-render',
    purpose: options.out,
  });
  const target = new RenderTarget(renderer, options, feed.logger);
  let stop = (): void => undefined;
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const debouncer = new Debouncer<ConfigState>(
    { delay: options.debounceMs, maxWait: options.debounceMs * MAX_WAIT_FACTOR },
    (state) => target.update(state, { throwOnFailure: false }),
  );
  // SIGHUP re-reads the template and renders (as consul-template does); Node's default would end the process.
  // Taken before the first render, so a signal sent as soon as the file appears is not lost.
  const reload = () => {
    target.reloadTemplate();
    debouncer.push(feed.current);
  };
  if (!options.once) {
    process.on('SIGHUP', reload);
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  }
  try {
    // The first render must succeed: there is no old file to keep serving from a configuration it cannot render.
    await target.update(feed.current, { throwOnFailure: true });
    if (options.once) return 0;
    feed.follow({ changed: (state) => debouncer.push(state), shutdownRequested: () => stop() });
    // The client's poll timer is unref'd (an application's own server keeps its process up): here nothing else
    // would, and the process would end quietly while it should be following.
    const keepAlive = setInterval(() => undefined, 2 ** 30);
    await stopped;
    clearInterval(keepAlive);
    return 0;
  } finally {
    process.off('SIGHUP', reload);
    process.off('SIGTERM', stop);
    process.off('SIGINT', stop);
    await debouncer.stop();
    await feed.close();
  }
}

/** The rendered file: what it holds now, and how a new configuration gets into it. */
class RenderTarget {
  #written: string | undefined;
  #checkedDisk = false;
  #reloadTemplate = false;

  constructor(
    private renderer: TemplateRenderer,
    private readonly options: RenderOptions,
    private readonly logger: Logger,
  ) {}

  /** Renders, writes when the text changed, runs --exec. A failure keeps the file; it is thrown or logged. */
  async update(state: ConfigState, { throwOnFailure }: { throwOnFailure: boolean }): Promise<void> {
    try {
      await this.#update(state);
    } catch (error) {
      if (throwOnFailure) throw error;
      this.logger.error(
        { configVersion: state.version },
        `${messageOf(error)}; ${this.options.out} keeps its content, --exec not run`,
      );
    }
  }

  /** The next update reads the template again first. */
  reloadTemplate(): void {
    this.#reloadTemplate = true;
  }

  async #update(state: ConfigState): Promise<void> {
    const { out, exec } = this.options;
    if (this.#reloadTemplate) {
      this.#reloadTemplate = false;
      // A template that no longer parses is refused like a failed render: the old one and the file stay.
      this.renderer = await TemplateRenderer.load(this.options.template);
      this.logger.info({}, `Template ${this.options.template} read again`);
    }
    const text = await this.renderer.render(state);
    if (!this.#checkedDisk) {
      // A file left by an earlier run with the same content is not rewritten (nor CMD run) at start.
      this.#checkedDisk = true;
      this.#written = await readFile(out, 'utf8').catch(() => undefined);
    }
    if (text === this.#written) {
      this.logger.info({ configVersion: state.version }, `${out} is up to date`);
      return;
    }
    await writeFileAtomically(out, text, this.options.mode);
    this.#written = text;
    this.logger.info({ configVersion: state.version, bytes: Buffer.byteLength(text) }, `Rendered ${out}`);
    if (exec === undefined) return;
    const result = await runExecHook(exec);
    if (result.ok) this.logger.info({}, `--exec finished (${result.description})`);
    else this.logger.warn({}, `--exec failed (${result.description})`);
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
