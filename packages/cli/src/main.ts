/**
 * The `confbus` command: `confbus server [--key=value ...]`, `confbus sample-client [--key=value ...]`,
 * `confbus --help`, `confbus --version`. Settings use Spring's keys; see docs/settings.md for the full table.
 */
import { ConfbusError, type SettingSpec, coreErrors } from '@confbus/core';
import { readFileSync } from 'node:fs';
import type * as SampleClient from '@confbus/sample-client';
import { cipherSettingSpecs, runCipherCommand } from './cipher-command.js';
import { parseCommandLine, UsageError } from './command-line.js';
import { settleCommand } from './command-outcome.js';
import { readSettingsFile } from './settings-file.js';

type SampleClientModule = typeof SampleClient;

const USAGE = `Usage: confbus <command> [--key=value | --key value ...]
       confbus --help | --version

Commands:
  server          Run the config server (port 8888) on --spring.cloud.config.server.git.uri=REPO,
                  or on an embedded sample repository with --confbus.server.sample-repository=true
  sample-client   Run the sample client application (GET /static, GET /dynamic, /actuator/*)
  run [--key=value ...] -- COMMAND ARGS
                  Start COMMAND with the configuration as environment variables; restart or signal it
                  on a change (--on-change=restart|signal:HUP|none); see docs/run-and-render.md
  render --template=T --out=F [--exec=CMD]
                  Write F from the template T with the configuration, again on each change, then run CMD
  encrypt [TEXT]  Print the cipher text of TEXT (default: standard input) for a {cipher} value
  decrypt [TEXT]  Print the plain text of a cipher text (default: standard input)
  check           Check a config repository against its contracts (confbus check --help)
  contracts import FILE --application NAME
                  Make a contract from Spring Boot configuration metadata (.json or a jar)
  rollout start|list|show|pause|resume|promote|abort|rollback --server URL
                  Start, follow and steer staged rollouts on a config server (confbus rollout --help)
  help            Show this text and every server and client setting

Settings come from --key=value arguments, then environment variables (SERVER_PORT), then a settings file
(--spring.config.location=FILE, else ./application.yml), then defaults. Keys bind as Spring's relaxed
binding does (search-paths, searchPaths, search-paths[0]).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'server': {
      const { unsupportedSpringServerSettings, serverSettingSpecs } = await import('@confbus/server');
      const line = parseCommandLine(rest, serverSettingSpecs, {
        unknownKeys: 'error',
        unsupported: unsupportedSpringServerSettings,
        maxOperands: 0,
      });
      return line.help || line.version ? helpOrVersion(line.help) : runServer(line.settingArgs);
    }
    case 'sample-client': {
      const { clientSettingSpecs } = await import('@confbus/client');
      const line = parseCommandLine(rest, clientSettingSpecs, { unknownKeys: 'keep', maxOperands: 0 });
      if (line.help || line.version) return helpOrVersion(line.help);
      // Loaded on demand so a client process never loads the server's dependencies. The sample is an optional
      // peer of this package: an installation that only runs the server does not carry it.
      const { startSampleClient } = await importOptional<SampleClientModule>('@confbus/sample-client');
      // A busshutdown addressed to this node stops it as SIGTERM does (Spring's ShutdownListener exits too).
      let requestShutdown = (): void => undefined;
      const shutdownRequested = new Promise<void>((resolve) => {
        requestShutdown = resolve;
      });
      const client = await startSampleClient({
        args: line.settingArgs,
        env: process.env,
        onShutdownRequest: () => requestShutdown(),
      });
      await Promise.race([untilSignal(() => undefined), shutdownRequested]);
      await client.close();
      return 0;
    }
    case 'run':
    case 'render': {
      // Loaded on demand: neither the server nor the other commands load the code that follows a child.
      const { runFollowCommand } = await import('./follow-commands.js');
      return runFollowCommand(command, rest, { env: process.env, cwd: process.cwd() });
    }
    case 'encrypt':
    case 'decrypt': {
      const line = parseCommandLine(rest, cipherSettingSpecs, { unknownKeys: 'error', maxOperands: 1 });
      if (line.help || line.version) return helpOrVersion(line.help);
      return runCipherCommand(command, [...line.settingArgs, ...line.operands], {
        env: process.env,
        cwd: process.cwd(),
        stdin: readStdin,
        out: (text) => process.stdout.write(`${text}\n`),
        err: (text) => process.stderr.write(`${text}\n`),
      });
    }
    case 'check':
    case 'contracts': {
      const { runContractsCommand } = await import('./contracts-commands.js');
      return runContractsCommand(command, rest, { cwd: process.cwd(), out: console.log, err: console.error });
    }
    case 'rollout': {
      const { runRolloutCommand } = await import('./rollout/rollout-command.js');
      return runRolloutCommand(rest, { out: console.log, err: console.error });
    }
    case 'help':
    case '--help':
    case '-h':
      return helpOrVersion(true);
    case '--version':
      return helpOrVersion(false);
    case undefined:
      console.error(USAGE);
      return 2;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

async function helpOrVersion(help: boolean): Promise<number> {
  if (!help) {
    console.log(`confbus ${cliVersion()}`);
    return 0;
  }
  const { serverSettingSpecs } = await import('@confbus/server');
  const { clientSettingSpecs } = await import('@confbus/client');
  console.log(
    `${USAGE}\n\nServer settings (confbus server):\n${describeSettings(serverSettingSpecs)}` +
      `\n\nClient settings (confbus sample-client, @confbus/client):\n${describeSettings(clientSettingSpecs)}` +
      `\n\nEncryption settings (confbus encrypt|decrypt):\n${describeSettings(cipherSettingSpecs)}`,
  );
  return 0;
}

/** This package's version, from its package.json (dist/main.js → ../package.json). */
function cliVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function describeSettings(specs: readonly SettingSpec[]): string {
  return specs
    .map((spec) => {
      const fallback = spec.default === undefined ? '' : ` (default: ${JSON.stringify(spec.default)})`;
      return `  --${spec.key}=<${spec.type}>${fallback}\n      ${spec.description}`;
    })
    .join('\n');
}

async function runServer(args: string[]): Promise<number> {
  const { createConfigServer, loggerFromSettings, resolveServerSettings } = await import('@confbus/server');
  const env = process.env;
  const settings = resolveServerSettings({ args, env, file: readSettingsFile(args, env) });
  const logger = loggerFromSettings(settings);
  for (const warning of settings.warnings) logger.warn(warning);
  const server = await createConfigServer({ settings, logger });
  // Signals are handled from here on: with clone-on-start, listen() waits for the first clone after the port
  // opened, and a SIGTERM meanwhile must shut down cleanly, not kill the process.
  const signalled = untilSignal((signal) => logger.info(`Received ${signal}, shutting down`));
  const listening = server.listen();
  const address = await Promise.race([listening, signalled.then(() => undefined)]);
  // Stopped before the start finished: whatever the start ends with no longer matters.
  if (address === undefined) listening.catch(() => undefined);
  else {
    if (settings.boolean('confbus.server.sample-repository')) {
      const base = address.replace('0.0.0.0', 'localhost');
      logger.info(
        `Try: ${base}/sample/dev  ${base}/sample-real.yml  ${base}/sample/dev,real/main  ${base}/actuator/health`,
      );
    }
    await signalled;
  }
  await server.close();
  // close() is bounded, but a library may still hold a socket open (a broker that never answers the close):
  // exit shortly after instead of lingering. Unref'd: a clean shutdown exits before it fires.
  setTimeout(() => process.exit(0), 1000).unref();
  return 0;
}

async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    process.stderr.write('Reading the text from standard input (end with Ctrl-D)...\n');
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function untilSignal(onSignal: (signal: string) => void): Promise<void> {
  return new Promise((resolveStop) => {
    const stop = (signal: string) => {
      onSignal(signal);
      resolveStop();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

settleCommand(main(process.argv.slice(2)), USAGE);

/** Imports an optional peer dependency, turning "not installed" into an instruction instead of a stack trace. */
async function importOptional<T>(name: string): Promise<T> {
  try {
    return (await import(name)) as T;
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String(error).includes(name)) {
      throw new ConfbusError(
        coreErrors.CONFBUS_PACKAGE_NOT_INSTALLED,
        `This command needs the package ${name}, which is not installed: npm install ${name}`,
        { cause: error },
      );
    }
    throw error;
  }
}
