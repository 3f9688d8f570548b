import type { Logger } from '@confbus/core';

/**
 * A logger that keeps every line (`level: message`, then the fields as JSON when there are any) and lets a
 * test react to one as it is logged.
 */
export class CaptureLogger implements Logger {
  readonly lines: string[] = [];
  private readonly hooks: Array<(line: string) => void> = [];

  onLine(hook: (line: string) => void): void {
    this.hooks.push(hook);
  }

  private log(level: string, fields: object, message = ''): void {
    const shown = Object.keys(fields).length === 0 ? '' : ` ${JSON.stringify(fields)}`;
    const line = `${level}: ${message}${shown}`;
    this.lines.push(line);
    for (const hook of this.hooks) hook(line);
  }

  debug(fields: object, message?: string): void {
    this.log('debug', fields, message);
  }
  info(fields: object, message?: string): void {
    this.log('info', fields, message);
  }
  warn(fields: object, message?: string): void {
    this.log('warn', fields, message);
  }
  error(fields: object, message?: string): void {
    this.log('error', fields, message);
  }
  child(): Logger {
    return this;
  }
}
