// Test helpers for the Git layer tests: a core Logger that records every call, and a mirror with the tests'
// usual options.
import type { Logger } from '@confbus/core';
import { GitMirror, type GitMirrorOptions } from '../../src/git/index.js';

export interface LogEntry {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object | string;
  msg?: string;
}

export interface CaptureLogger extends Logger {
  readonly entries: LogEntry[];
  /** Everything logged, serialised, for "secret never appears" assertions. */
  text(): string;
}

export function captureLogger(): CaptureLogger {
  const entries: LogEntry[] = [];
  const at = (level: LogEntry['level']) => (obj: object | string, msg?: string) => {
    entries.push({ level, obj, msg });
  };
  const logger: CaptureLogger = {
    entries,
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    text: () => entries.map((e) => JSON.stringify(e)).join('\n'),
    child: () => logger,
  };
  return logger;
}

/**
 * A GitMirror of `uri` in `basedir` with what most Git tests want: label `master`, a fresh upstream check on
 * every request (refresh-rate 0), a 30 s timeout and a capturing logger; `overrides` changes any of them.
 */
export function testMirror(
  options: Pick<GitMirrorOptions, 'uri' | 'basedir'> & Partial<GitMirrorOptions>,
): GitMirror {
  return new GitMirror({
    defaultLabel: 'master',
    refreshRateSeconds: 0,
    timeoutSeconds: 30,
    logger: captureLogger(),
    ...options,
  });
}
